//! A set of characters, looked up at every character of a book: a bitmap
//! over the Basic Multilingual Plane (where Han characters live) and a small
//! list for the rest, and `is_han`, whether a character is a Han ideograph.
//! A leaf module: the cleaning, script and entity stages use it.

/// A set of characters: a bitmap over the Basic Multilingual Plane (where
/// Han characters live) and a small list for the rest. Looked up at every
/// character of a book, so it must cost nothing.
#[derive(Debug, Clone, Default)]
pub struct CharSet {
    bmp: Vec<u64>,
    other: Vec<char>,
}

impl CharSet {
    pub fn new() -> CharSet {
        CharSet {
            bmp: vec![0; 0x10000 / 64],
            other: Vec::new(),
        }
    }

    #[inline]
    pub fn contains(&self, c: &char) -> bool {
        let u = *c as usize;
        if u < 0x10000 {
            self.bmp[u / 64] & (1 << (u % 64)) != 0
        } else {
            self.other.contains(c)
        }
    }

    pub fn insert(&mut self, c: char) {
        let u = c as usize;
        if u < 0x10000 {
            self.bmp[u / 64] |= 1 << (u % 64);
        } else if !self.other.contains(&c) {
            self.other.push(c);
        }
    }

    /// The characters, in code point order (the BMP ones) and then the
    /// others in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = char> + '_ {
        self.bmp
            .iter()
            .enumerate()
            .flat_map(|(i, &bits)| {
                (0..64)
                    .filter(move |b| bits & (1 << b) != 0)
                    .filter_map(move |b| char::from_u32((i * 64 + b) as u32))
            })
            .chain(self.other.iter().copied())
    }

    pub fn remove(&mut self, c: &char) {
        let u = *c as usize;
        if u < 0x10000 {
            self.bmp[u / 64] &= !(1 << (u % 64));
        } else {
            self.other.retain(|x| x != c);
        }
    }
}

impl Extend<char> for CharSet {
    fn extend<I: IntoIterator<Item = char>>(&mut self, iter: I) {
        for c in iter {
            self.insert(c);
        }
    }
}

impl FromIterator<char> for CharSet {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> CharSet {
        let mut set = CharSet::new();
        set.extend(iter);
        set
    }
}

/// Whether a character is a Han ideograph (CJK unified, extensions, compatibility).
pub fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FA1F}'
        | '〇')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_set_holds_bmp_and_astral_characters() {
        let mut set: CharSet = "的了".chars().collect();
        set.insert('𠀀');
        assert!(set.contains(&'的') && set.contains(&'𠀀') && !set.contains(&'王'));
        assert_eq!(set.iter().collect::<String>(), "了的𠀀");
        set.remove(&'的');
        assert!(!set.contains(&'的'));
    }
}
