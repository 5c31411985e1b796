//! A compact store of search states: each state kept once, in a vector,
//! with a hash table of indices into it. A state costs its own size plus
//! about six bytes of table, and is known by a `u32` index everywhere else.

use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

/// States a budget check leaves room for before the next check: the most
/// one expansion may add (see [`Store::growth_bytes`]).
pub(crate) const GROWTH_SLACK: usize = 256;

pub struct Store<S> {
    states: Vec<S>,
    table: HashTable<u32>,
    hasher: FxBuildHasher,
}

impl<S: Hash + Eq> Default for Store<S> {
    fn default() -> Self {
        Store {
            states: Vec::new(),
            table: HashTable::new(),
            hasher: FxBuildHasher,
        }
    }
}

impl<S: Hash + Eq> Store<S> {
    /// Adds `s` unless present; returns its index and whether it is new.
    pub fn insert(&mut self, s: S) -> (u32, bool) {
        let hash = self.hasher.hash_one(&s);
        let states = &self.states;
        if let Some(&i) = self.table.find(hash, |&i| states[i as usize] == s) {
            return (i, false);
        }
        let i = u32::try_from(self.states.len()).expect("fewer than 2^32 states");
        self.states.push(s);
        let (states, hasher) = (&self.states, &self.hasher);
        self.table
            .insert_unique(hash, i, |&j| hasher.hash_one(&states[j as usize]));
        (i, true)
    }

    pub fn get(&self, s: &S) -> Option<u32> {
        let hash = self.hasher.hash_one(s);
        self.table
            .find(hash, |&i| self.states[i as usize] == *s)
            .copied()
    }

    pub fn state(&self, i: u32) -> &S {
        &self.states[i as usize]
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Bytes held: the states by length (the vector grows by remapping, and
    /// its spare pages are never touched), the hash table whole.
    pub fn bytes(&self) -> u64 {
        (self.states.len() * std::mem::size_of::<S>()) as u64
            + super::memory::hash_map_bytes(self.table.capacity(), 4)
    }

    /// Bytes the hash table would take anew if `extra` more states came
    /// in now: while it grows, its old and new tables are both held, so a
    /// search that keeps to a budget must have room for the new one
    /// before it inserts (0 when no growth is due).
    pub fn growth_bytes(&self, extra: usize) -> u64 {
        super::memory::hash_growth_bytes(self.states.len(), self.table.capacity(), extra, 4)
    }

    pub fn into_states(self) -> Vec<S> {
        self.states
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_state_once() {
        let mut s = Store::default();
        assert_eq!(s.insert(7u64), (0, true));
        assert_eq!(s.insert(9u64), (1, true));
        assert_eq!(s.insert(7u64), (0, false));
        assert_eq!(s.get(&9), Some(1));
        assert_eq!(s.get(&8), None);
        assert_eq!(s.len(), 2);
        assert!(s.bytes() > 0);
    }
}
