//! In-memory tasks, indexed by id and listed by context, with the state rules the layer
//! enforces.
//!
//! A std `Mutex` is enough: every critical section is a few map operations and the
//! lock is never held across an await.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use a2a_lf::{ListTasksRequest, ListTasksResponse, Message, Task, TaskState};
use chrono::{DateTime, Utc};

use crate::RpcError;
use crate::params::DEFAULT_PAGE_SIZE;

/// How many tasks are kept before the oldest finished ones are dropped.
pub const DEFAULT_TASK_CAPACITY: usize = 10_000;

#[derive(Debug)]
pub struct TaskStore {
    inner: Mutex<Inner>,
    capacity: usize,
}

#[derive(Debug, Default)]
struct Inner {
    tasks: HashMap<String, Task>,
    /// Insertion order, for eviction.
    order: VecDeque<String>,
}

impl Default for TaskStore {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_TASK_CAPACITY)
    }
}

/// Lowercase state name without the prefix, for messages.
pub(crate) fn state_name(state: &TaskState) -> String {
    let s = serde_json::to_value(state).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    s.trim_start_matches("TASK_STATE_").to_ascii_lowercase().replace('_', "-")
}

impl TaskStore {
    pub fn with_capacity(capacity: usize) -> Self {
        Self { inner: Mutex::new(Inner::default()), capacity: capacity.max(1) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves plain data behind; keep serving.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn get(&self, id: &str) -> Option<Task> {
        self.lock().tasks.get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.lock().tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stores a new task, dropping the oldest (finished first) past capacity.
    pub fn insert(&self, task: Task) {
        let mut inner = self.lock();
        inner.order.push_back(task.id.clone());
        inner.tasks.insert(task.id.clone(), task);
        while inner.tasks.len() > self.capacity {
            let victim = inner
                .order
                .iter()
                .position(|id| inner.tasks.get(id).is_some_and(|t| t.status.state.is_terminal()))
                .unwrap_or(0);
            if let Some(id) = inner.order.remove(victim) {
                inner.tasks.remove(&id);
            }
        }
    }

    /// Appends a message to a task's history unless the task is finished.
    pub fn append(&self, id: &str, message: Message) -> Result<(), RpcError> {
        let mut inner = self.lock();
        let task = inner.tasks.get_mut(id).ok_or_else(|| RpcError::task_not_found(id))?;
        if task.status.state.is_terminal() {
            return Err(terminal_error(task));
        }
        task.history.get_or_insert_with(Vec::new).push(message);
        Ok(())
    }

    /// Applies `f` to a task that is not finished. A finished task is returned as it
    /// is, unchanged: nothing can move a task out of a terminal state.
    pub fn update(&self, id: &str, f: impl FnOnce(&mut Task)) -> Result<Task, RpcError> {
        let mut inner = self.lock();
        let task = inner.tasks.get_mut(id).ok_or_else(|| RpcError::task_not_found(id))?;
        if !task.status.state.is_terminal() {
            f(task);
        }
        Ok(task.clone())
    }

    /// Moves a task to canceled. Finished tasks cannot be canceled (-32002).
    pub fn cancel(&self, id: &str) -> Result<Task, RpcError> {
        let mut inner = self.lock();
        let task = inner.tasks.get_mut(id).ok_or_else(|| RpcError::task_not_found(id))?;
        if task.status.state.is_terminal() {
            return Err(RpcError::task_not_cancelable(id, &state_name(&task.status.state)));
        }
        task.status =
            a2a_lf::TaskStatus { state: TaskState::Canceled, message: None, timestamp: Some(Utc::now()) };
        Ok(task.clone())
    }

    /// Lists tasks newest first, filtered and paged. The page token names the last
    /// task of the previous page, so pages stay stable while tasks are added.
    pub fn list(&self, req: &ListTasksRequest) -> Result<ListTasksResponse, RpcError> {
        let page_size = match req.page_size {
            None | Some(0) => DEFAULT_PAGE_SIZE,
            Some(n) => n,
        };
        let after =
            match req.page_token.as_deref() {
                None | Some("") => None,
                Some(token) => Some(parse_token(token).ok_or_else(|| {
                    RpcError::invalid_params("pageToken", "is not a token this server issued")
                })?),
            };
        let status = req.status.clone().filter(|s| *s != TaskState::Unspecified);
        let inner = self.lock();
        let mut matching: Vec<&Task> = inner
            .tasks
            .values()
            .filter(|t| req.context_id.as_ref().is_none_or(|c| &t.context_id == c))
            .filter(|t| status.as_ref().is_none_or(|s| &t.status.state == s))
            .filter(|t| req.status_timestamp_after.is_none_or(|after| sort_key(t).0 > after))
            .collect();
        matching.sort_by(|a, b| sort_key(b).cmp(&sort_key(a)));
        let total = matching.len();
        let start = match &after {
            None => 0,
            Some((ts, id)) => matching.iter().position(|t| sort_key(t) < (*ts, id.as_str())).unwrap_or(total),
        };
        let page: Vec<Task> = matching
            .iter()
            .skip(start)
            .take(page_size as usize)
            .map(|t| shape(t, req.history_length, req.include_artifacts.unwrap_or(false)))
            .collect();
        let next_page_token = if start + page.len() < total {
            page.last().map(|t| make_token(sort_key(t))).unwrap_or_default()
        } else {
            String::new()
        };
        Ok(ListTasksResponse {
            tasks: page,
            next_page_token,
            page_size,
            total_size: i32::try_from(total).unwrap_or(i32::MAX),
        })
    }
}

pub(crate) fn terminal_error(task: &Task) -> RpcError {
    RpcError::unsupported(format!(
        "task {} is {} and accepts no more messages; start a new task",
        task.id,
        state_name(&task.status.state)
    ))
}

fn sort_key(t: &Task) -> (DateTime<Utc>, &str) {
    (t.status.timestamp.unwrap_or(DateTime::<Utc>::MIN_UTC), t.id.as_str())
}

fn make_token((ts, id): (DateTime<Utc>, &str)) -> String {
    format!("{}.{}", ts.timestamp_nanos_opt().unwrap_or(0), id)
}

fn parse_token(token: &str) -> Option<(DateTime<Utc>, String)> {
    let (nanos, id) = token.split_once('.')?;
    let nanos: i64 = nanos.parse().ok()?;
    if id.is_empty() {
        return None;
    }
    Some((DateTime::from_timestamp_nanos(nanos), id.to_string()))
}

/// Trims a task for a response: the last `history_length` messages (all when absent,
/// none for 0), artifacts only when asked.
pub(crate) fn shape(task: &Task, history_length: Option<i32>, artifacts: bool) -> Task {
    let mut t = task.clone();
    trim_history(&mut t, history_length);
    if !artifacts {
        t.artifacts = None;
    }
    t
}

pub(crate) fn trim_history(t: &mut Task, history_length: Option<i32>) {
    match history_length {
        None => {}
        Some(0) => t.history = None,
        Some(n) => {
            if let Some(h) = t.history.as_mut() {
                let keep = n as usize;
                if h.len() > keep {
                    h.drain(..h.len() - keep);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_lf::TaskStatus;

    fn task(id: &str, ctx: &str, state: TaskState, secs: i64) -> Task {
        Task {
            id: id.into(),
            context_id: ctx.into(),
            status: TaskStatus { state, message: None, timestamp: DateTime::from_timestamp(secs, 0) },
            artifacts: None,
            history: None,
            metadata: None,
        }
    }

    #[test]
    fn terminal_tasks_do_not_change() {
        let s = TaskStore::default();
        s.insert(task("a", "c", TaskState::Completed, 1));
        let t = s.update("a", |t| t.status.state = TaskState::Working).unwrap();
        assert_eq!(t.status.state, TaskState::Completed);
        assert_eq!(s.cancel("a").unwrap_err().code, -32002);
        assert_eq!(s.cancel("zz").unwrap_err().code, -32001);
    }

    #[test]
    fn eviction_prefers_finished_tasks() {
        let s = TaskStore::with_capacity(2);
        s.insert(task("open", "c", TaskState::Working, 1));
        s.insert(task("done", "c", TaskState::Completed, 2));
        s.insert(task("new", "c", TaskState::Working, 3));
        assert!(s.get("open").is_some());
        assert!(s.get("done").is_none());
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn paging_walks_every_task_once() {
        let s = TaskStore::default();
        for i in 0..7 {
            s.insert(task(&format!("t{i}"), if i % 2 == 0 { "even" } else { "odd" }, TaskState::Working, i));
        }
        let mut seen = Vec::new();
        let mut req = ListTasksRequest {
            context_id: None,
            status: None,
            page_size: Some(3),
            page_token: None,
            history_length: None,
            status_timestamp_after: None,
            include_artifacts: None,
            tenant: None,
        };
        loop {
            let page = s.list(&req).unwrap();
            assert_eq!(page.total_size, 7);
            seen.extend(page.tasks.iter().map(|t| t.id.clone()));
            if page.next_page_token.is_empty() {
                break;
            }
            req.page_token = Some(page.next_page_token);
        }
        assert_eq!(seen, vec!["t6", "t5", "t4", "t3", "t2", "t1", "t0"]);
        req.page_token = None;
        req.context_id = Some("odd".into());
        req.page_size = None;
        assert_eq!(s.list(&req).unwrap().tasks.len(), 3);
        req.page_token = Some("garbage".into());
        assert_eq!(s.list(&req).unwrap_err().code, -32602);
    }
}
