//! A map that forgets its oldest entries past a capacity. Everything that grows with
//! traffic is bounded this way: the Hub's ledger, conversation contexts, open clarifying
//! questions and seen notice ids, and the offline tutor's memory per conversation.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Arc;

/// Each key is stored once and shared by the map and the age queue (an insert clones no
/// key, only a pointer).
#[derive(Debug)]
pub struct BoundedMap<K, V> {
    map: HashMap<Arc<K>, V>,
    order: VecDeque<Arc<K>>,
    capacity: usize,
}

impl<K: Eq + Hash, V> BoundedMap<K, V> {
    pub fn new(capacity: usize) -> Self {
        Self { map: HashMap::new(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key)
    }

    /// The value of `key`, to change in place (its age is unchanged).
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.map.get_mut(key)
    }

    /// Inserts a new key (an existing key keeps its place), dropping the oldest past capacity.
    pub fn insert(&mut self, key: K, value: V) {
        let key = Arc::new(key);
        if self.map.insert(key.clone(), value).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&*old);
            }
        }
    }

    pub fn remove(&mut self, key: &K) {
        self.take(key);
    }

    /// Removes `key` and returns its value.
    pub fn take(&mut self, key: &K) -> Option<V> {
        let value = self.map.remove(key)?;
        self.order.retain(|k| **k != *key);
        Some(value)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgets_the_oldest() {
        let mut m = BoundedMap::new(2);
        m.insert("a", 1);
        m.insert("b", 2);
        m.insert("a", 3);
        m.insert("c", 4);
        assert_eq!((m.get(&"a"), m.get(&"b"), m.get(&"c")), (None, Some(&2), Some(&4)));
        m.remove(&"b");
        assert_eq!(m.len(), 1);
    }
}
