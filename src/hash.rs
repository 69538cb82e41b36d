//! The hash maps every stage uses: rustc's FxHasher (the rustc-hash crate),
//! fast for the short keys counted here. A leaf module: any stage may use
//! it without depending on another stage. Tables never depend on iteration
//! order; they are sorted before they are written.

/// A hash map with FxHasher.
pub type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// A hash set with FxHasher.
pub type FxSet<T> = rustc_hash::FxHashSet<T>;
