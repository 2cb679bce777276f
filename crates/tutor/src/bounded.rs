//! A map that forgets its oldest entries past a capacity (the idea of the Hub's
//! `bounded.rs`, kept here so the Tutor does not depend on the Hub).

use std::collections::{HashMap, VecDeque};

#[derive(Debug)]
pub(crate) struct BoundedMap<V> {
    map: HashMap<String, V>,
    order: VecDeque<String>,
    capacity: usize,
}

impl<V> BoundedMap<V> {
    pub(crate) fn new(capacity: usize) -> Self {
        Self { map: HashMap::new(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.map.get(key)
    }

    /// Inserts or replaces (an existing key keeps its place), dropping the oldest past capacity.
    pub(crate) fn insert(&mut self, key: &str, value: V) {
        if self.map.insert(key.to_string(), value).is_none() {
            self.order.push_back(key.to_string());
        }
        while self.order.len() > self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
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
        assert_eq!((m.get("a"), m.get("b"), m.get("c"), m.len()), (None, Some(&2), Some(&4), 2));
    }
}
