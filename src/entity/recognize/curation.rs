//! Curation: the user has the last word. Names from `--names` (and `--dict`
//! words tagged nr/ns/nt) are entities of the given type under the given
//! name, absorbing whatever the recognizer found under that name or its
//! aliases; words from `--not-names` are never entities nor aliases.

use super::{decided_owned, Decided, Measured, Recognizer};
use std::collections::BTreeSet;

impl Recognizer {
    /// Applies the user's not-names, then the user's names, in file order.
    pub(super) fn apply_user(&self, mut decided: Vec<Decided>, m: &Measured) -> Vec<Decided> {
        let not = &self.lex.not_names;
        if !not.is_empty() {
            decided.retain(|d| !not.contains(&d.name));
            for d in &mut decided {
                d.aliases.retain(|a| !not.contains(a));
            }
        }
        for user in &self.lex.user_names {
            let names: BTreeSet<&str> = std::iter::once(user.name.as_str())
                .chain(user.aliases.iter().map(String::as_str))
                .collect();
            let mut entity = decided_owned(
                user.name.clone(),
                user.kind,
                1.0,
                &["user"],
                m.count(&user.name),
            );
            let (hits, rest): (Vec<Decided>, Vec<Decided>) = decided
                .into_iter()
                .partition(|d| names.contains(d.name.as_str()) || d.aliases.contains(&user.name));
            for d in hits {
                entity.count = entity.count.max(d.count);
                entity.aliases.insert(d.name);
                entity.aliases.extend(d.aliases);
                entity.evidence.extend(d.evidence);
            }
            entity.aliases.extend(user.aliases.iter().cloned());
            entity.aliases.remove(&user.name);
            decided = rest;
            decided.push(entity);
        }
        decided
    }

    /// Whether a name is the user's: named in `--names` or the canonical of
    /// a `--aliases` line (automatic merging never moves it).
    pub(super) fn is_user_canonical(&self, name: &str) -> bool {
        self.lex.user_names.iter().any(|u| u.name == name)
            || self.lex.aliases[self.lex.builtin_aliases..]
                .iter()
                .any(|(c, _)| c == name)
    }
}
