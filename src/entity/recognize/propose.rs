//! Propose and measure: pass 1 proposes candidate strings at surnames, suffixes,
//! cues and lexicon names; pass 2 counts every occurrence of every candidate
//! with its contexts (cues, run edges, boundary cuts, neighbours). Both run
//! over slices of the book in parallel and merge deterministically.

use super::*;

impl Recognizer {
    /// Proposes candidates, then counts them with their contexts. Both scans
    /// run on slices of the book in parallel; the partial tables are merged
    /// in book order (pass 1) or added up (pass 2), so the result does not
    /// depend on the thread count.
    pub(super) fn measure<'a>(
        &self,
        runs: &Runs<'a>,
        all_parts: bool,
        phases: &mut Phases,
    ) -> Measured<'a> {
        let t0 = Instant::now();
        let parts = runs.slices();
        let tables: Vec<Table<'a>> = parts
            .par_iter()
            .map(|part| self.propose_all(part))
            .collect();
        let mut table = Table::default();
        for t in tables {
            table.append(t);
        }
        // In a long book, a string proposed once is kept only if listed.
        let book_chars: usize = runs.iter().map(|r| r.len()).sum();
        if book_chars > LONG_BOOK {
            table.prune(2, |w| self.lex_names.contains_key(w));
        }
        // Parts of candidates, counted for cohesion (only the `discover`
        // report needs them all; the army rule needs its stems).
        let proposed: Vec<&'a str> = table.words.clone();
        for w in proposed {
            if !all_parts && self.army_suffix(w).is_none() {
                continue;
            }
            let offs: Vec<usize> = w.char_indices().map(|(i, _)| i).skip(1).collect();
            for &o in &offs {
                for part in [&w[..o], &w[o..]] {
                    if part.chars().count() >= 2 {
                        table.add(part, corpus::key_of(part), true);
                    }
                }
            }
        }
        phases.mark(t0, "measure: proposals");
        let index = CandidateIndex::new(&table);
        phases.mark(t0, "measure: index");
        // Each thread counts its slices into one set of tables, so that
        // only a set per thread is alive, not one per slice. The counts are
        // sums and sorted tallies: the same whichever thread counted which
        // slice, in whatever order. The thread's cache of character pairs
        // (`Bigrams::local`) also serves all its slices: a slice meets most
        // of the pairs the one before it met.
        let threads = rayon::current_num_threads();
        /// A thread's counts and its cache of character pairs.
        type Slot = Option<(Counts, Vec<u64>)>;
        let per_thread: Vec<Mutex<Slot>> = (0..threads).map(|_| Mutex::new(None)).collect();
        parts.par_iter().for_each(|part| {
            let slot = rayon::current_thread_index().unwrap_or(0) % threads;
            let mut counts = per_thread[slot].lock().expect("no count panicked");
            let (counts, pairs) = counts.get_or_insert_with(|| {
                (
                    Counts::new(index.aux.len()),
                    vec![0; 1 << LOCAL_BIGRAM_BITS],
                )
            });
            self.count_into(part, &index, counts, pairs);
        });
        let counts = per_thread
            .into_iter()
            .filter_map(|c| c.into_inner().expect("no count panicked").map(|c| c.0))
            .reduce(|mut a, b| {
                a.add(b);
                a
            })
            .unwrap_or_else(|| Counts::new(index.aux.len()));
        phases.mark(t0, "measure: counts");
        let keys = index.keys;
        let Counts {
            mut stats,
            left,
            right,
            chars,
            total_chars,
        } = counts;
        let (left, right) = (left.finish(), right.finish());
        for (st, &aux) in stats.iter_mut().zip(&table.aux) {
            st.aux = aux;
        }
        fold_side(&left, &mut stats, true);
        fold_side(&right, &mut stats, false);
        Measured {
            index: keys,
            long_index: table.long,
            words: table.words,
            stats,
            chars,
            total_chars,
            left,
            right,
        }
    }

    /// Pass 1 over some runs: every string the rules propose, and the
    /// lexicon's own names, in the order first seen.
    pub(super) fn propose_all<'a>(&self, runs: &RunSlice<'_, 'a>) -> Table<'a> {
        let mut table = Table::default();
        let mut props: Vec<(usize, usize)> = Vec::new();
        for run in runs.iter() {
            let run = &run;
            let n = run.len();
            for i in 0..n {
                props.clear();
                self.proposals(run, i, &mut props);
                for &(s, e) in &props {
                    table.add(run.sub(s, e), run.key(s, e), false);
                }
                // The lexicon's own names are found by the same scan.
                let max = self.lex_first.get(run.ch(i));
                if max > 0 {
                    for len in 2..=max.min(n - i) {
                        let (w, key) = (run.sub(i, i + len), run.key(i, i + len));
                        let listed = match key {
                            Some(k) => self.lex_keys.contains_key(&k),
                            None => self.lex_names.contains_key(w),
                        };
                        if listed {
                            table.add(w, key, false);
                        }
                    }
                }
            }
        }
        table
    }

    /// Pass 2 over some runs: every occurrence of every candidate, with its
    /// contexts, added to `counts`. Context features depend on a boundary
    /// only: computed once per position, when some candidate first needs
    /// them.
    pub(super) fn count_into(
        &self,
        runs: &RunSlice,
        index: &CandidateIndex,
        counts: &mut Counts,
        pairs: &mut Vec<u64>,
    ) {
        let mut crossing = Bigrams {
            at: Vec::new(),
            local: std::mem::take(pairs),
        };
        let mut lfeat: Vec<Option<LeftFeat>> = Vec::new();
        let mut rfeat: Vec<Option<RightFeat>> = Vec::new();
        for run in runs.iter() {
            let run = &run;
            let n = run.len();
            counts.total_chars += n as u64;
            lfeat.clear();
            lfeat.resize(n + 1, None);
            rfeat.clear();
            rfeat.resize(n + 1, None);
            crossing.at.clear();
            crossing.at.resize(n, None);
            #[allow(clippy::needless_range_loop)] // i indexes the run and both feature tables
            for i in 0..n {
                *counts.chars.entry(run.ch(i)).or_insert(0) += 1;
                if i + 1 == n || !index.may_start(run.ch(i), run.ch(i + 1)) {
                    continue;
                }
                let mut key = extend_key(0, run.ch(i));
                for len in 2..=index.max_len.min(n - i) {
                    let j = i + len;
                    let id = if len <= KEY_CHARS {
                        key = extend_key(key, run.ch(j - 1));
                        match index.keys.get(&key) {
                            Some(&slot) => slot,
                            // No candidate starts with these characters.
                            None => break,
                        }
                    } else {
                        match index.long.get(run.sub(i, j)) {
                            Some(&id) => id,
                            None => continue,
                        }
                    };
                    if id == PREFIX_ONLY {
                        continue;
                    }
                    let st = &mut counts.stats[id as usize];
                    st.count += 1;
                    if index.aux[id as usize] {
                        continue;
                    }
                    let lf = *lfeat[i].get_or_insert_with(|| self.left_feat(run, i, &mut crossing));
                    let rf =
                        *rfeat[j].get_or_insert_with(|| self.right_feat(run, j, &mut crossing));
                    apply_feats(st, lf, rf, i == 0, j == n);
                    if i > 0 {
                        counts.left.push(neighbour(id, run.ch(i - 1)));
                    }
                    if j < n {
                        counts.right.push(neighbour(id, run.ch(j)));
                    }
                }
            }
        }
        *pairs = crossing.local;
    }

    /// Strings proposed at character `i` of a run (anchored there by a
    /// surname, or ending at a suffix or cue that starts at `i`), as
    /// character ranges of the run.
    pub(super) fn proposals(&self, run: &Run, i: usize, out: &mut Vec<(usize, usize)>) {
        let n = run.len();
        let c = run.ch(i);
        // Surname + given name.
        if self.surname_first.contains(&c) {
            for slen in [2usize, 1] {
                if i + slen > n || !self.surname_keys.contains_key(&key(run, i, i + slen)) {
                    continue;
                }
                // 于氏, 柯氏: a woman named by her family (judged by
                // `person_score`, though a clan word is no given name).
                if i + slen < n && self.chars.clan.contains(&run.ch(i + slen)) {
                    out.push((i, i + slen + 1));
                }
                for glen in 1..=2 {
                    let j = i + slen + glen;
                    if j > n {
                        break;
                    }
                    if (i + slen..j).any(|k| self.not_given.contains(&run.ch(k))) {
                        break;
                    }
                    out.push((i, j));
                }
            }
        }
        // Stem + place suffix / army suffix starting at i.
        let suffix_max = if self.suffix_first.contains(&c) { 3 } else { 0 };
        for slen in 1..=suffix_max.min(n - i) {
            let Some(&(place, army)) = self.suffix_keys.get(&key(run, i, i + slen)) else {
                continue;
            };
            if !place && !army {
                continue;
            }
            let max_stem = if army { 4 } else { 3 };
            for stem in 1..=max_stem.min(i) {
                let k = i - stem;
                let first = run.ch(k);
                if stem > 1
                    && self.is_function_char(first)
                    && !(place && self.numerals.contains(&first))
                {
                    continue;
                }
                if stem == 1 && self.is_function_char(first) {
                    continue;
                }
                out.push((k, i + slen));
            }
        }
        // String before a person cue starting at i; string after a movement cue ending at i.
        for clen in 1..=MAX_CUE.min(n - i) {
            let Some(a) = self.affix(run, i, i + clen) else {
                break;
            };
            let strong_person = a.cue.is_some_and(|cue| {
                cue[class_index(CueClass::Speech)] >= 3 || cue[class_index(CueClass::Action)] >= 3
            });
            if strong_person {
                for len in 2..=4usize.min(i) {
                    out.push((i - len, i));
                }
            }
            if !a.starts_longer {
                break;
            }
        }
        for clen in 1..=MAX_CUE.min(i) {
            let Some(a) = self.affix(run, i - clen, i) else {
                break;
            };
            if a.cue
                .is_some_and(|c| c[class_index(CueClass::Movement)] >= 3)
            {
                for len in 2..=4usize.min(n - i) {
                    out.push((i, i + len));
                }
            }
            if !a.ends_longer {
                break;
            }
        }
        out.retain(|&(s, e)| e - s <= MAX_CAND);
    }

    /// Context features of the boundary before character `j` seen from the
    /// left (a candidate ending at `j`): a cue right after, or after an
    /// adverb (马扩也领着). A one-character cue that starts a longer word
    /// (道路) or ends one with the candidate's last character (通道) is no cue.
    pub(super) fn right_feat(&self, run: &Run, j: usize, crossing: &mut Bigrams) -> RightFeat {
        let n = run.len();
        let mut f = RightFeat::default();
        if j == n {
            if matches!(run.after, '：' | ':') {
                f.say = 2;
            }
            return f;
        }
        let adverb_end = |alen: usize| {
            let adverb = j + alen < n
                && self
                    .affix(run, j, j + alen)
                    .and_then(|a| a.cue)
                    .is_some_and(|c| c[class_index(CueClass::Adverb)] > 0);
            if adverb {
                j + alen
            } else {
                usize::MAX
            }
        };
        let starts = [j, adverb_end(1), adverb_end(2)];
        for (si, &s) in starts.iter().enumerate() {
            if s == usize::MAX {
                continue;
            }
            for clen in 1..=MAX_CUE.min(n - s) {
                // No cue or title starts so: none starts with more either.
                let Some(a) = self.affix(run, s, s + clen) else {
                    break;
                };
                if clen >= 2 && si == 0 && a.title.is_some_and(|p| p.after_name()) {
                    f.title = true;
                }
                'cue: {
                    let Some(c) = a.cue else {
                        break 'cue;
                    };
                    if clen == 1 {
                        let glued_next = s + 2 <= n
                            && self.affix(run, s, s + 2).is_none_or(|a| a.cue.is_none())
                            && self.crosses(run, s, crossing);
                        let glued_prev = si == 0 && j > 0 && self.crosses(run, s - 1, crossing);
                        if glued_next || glued_prev {
                            break 'cue;
                        }
                    }
                    f.say = f.say.max(c[class_index(CueClass::Speech)]);
                    f.act = f.act.max(c[class_index(CueClass::Action)]);
                    if si == 0 {
                        f.loc = f.loc.max(c[class_index(CueClass::Location)]);
                    }
                }
                if !a.starts_longer {
                    break;
                }
            }
        }
        let cue = f.say >= 2 || f.act >= 2 || f.loc >= 2 || f.title;
        if j > 0 {
            for k in 1..=MAX_CUE.min(n + 1 - j) {
                let Some(a) = self.affix(run, j - 1, j - 1 + k) else {
                    break;
                };
                if k >= 2 && a.title.is_some_and(|p| p.after_name()) {
                    f.title_cut = true;
                    break;
                }
                if !a.starts_longer {
                    break;
                }
            }
        }
        f.function = self.is_function_char(run.ch(j));
        // 铁鹞骑|三千, 禁军|一万: a count of troops after the unit.
        f.counted = j + 1 < n
            && self.numerals.contains(&run.ch(j))
            && !self.chars.magnitude.contains(&run.ch(j))
            && self.chars.magnitude.contains(&run.ch(j + 1));
        // 永乐城下, 燕山中: a locative after a name makes words (城下) freely.
        let locative = self.chars.locative.contains(&run.ch(j));
        f.bad = j > 0 && !cue && !locative && self.crosses(run, j - 1, crossing);
        f
    }

    /// Context features of the boundary before character `i` seen from the
    /// right (a candidate starting at `i`): a command, naming or movement
    /// cue, or a title, ending at `i`. A one-character cue that ends a
    /// longer word (待到) is no cue.
    pub(super) fn left_feat(&self, run: &Run, i: usize, crossing: &mut Bigrams) -> LeftFeat {
        let mut f = LeftFeat::default();
        if i == 0 {
            return f;
        }
        let mut long_cue = false;
        for clen in 1..=MAX_CUE.min(i) {
            // No cue or title ends so: none ends with more either.
            let Some(a) = self.affix(run, i - clen, i) else {
                break;
            };
            if clen >= 2 && a.title.is_some_and(|p| p.before_name()) {
                f.title = true;
            }
            'cue: {
                let Some(c) = a.cue else {
                    break 'cue;
                };
                if clen == 1
                    && i >= 2
                    && self.affix(run, i - 2, i).is_none_or(|a| a.cue.is_none())
                    && self.crosses(run, i - 2, crossing)
                {
                    break 'cue;
                }
                let (cc, mc, nc) = (
                    c[class_index(CueClass::Command)],
                    c[class_index(CueClass::Movement)],
                    c[class_index(CueClass::Naming)],
                );
                f.cmd = f.cmd.max(cc);
                f.mov = f.mov.max(mc);
                f.nam = f.nam.max(nc);
                if clen >= 2 && (cc >= 2 || mc >= 2 || nc >= 2) {
                    long_cue = true;
                }
            }
            if !a.ends_longer {
                break;
            }
        }
        f.function = self.is_function_char(run.ch(i - 1));
        f.dem = self.chars.demonstrative.contains(&run.ch(i - 1));
        // 三千|X兵; 两名|X卫, 数十名|X卫 (a numeral, then a classifier of people).
        f.counted = self.chars.magnitude.contains(&run.ch(i - 1))
            || (i >= 2
                && self.chars.head_count.contains(&run.ch(i - 1))
                && (self.numerals.contains(&run.ch(i - 2))
                    || self.chars.magnitude.contains(&run.ch(i - 2))));
        f.word = i < run.len() && self.bigram_flags(run, i - 1, crossing).0;
        // A one-character cue glued into a word (出口) explains nothing.
        f.bad = i < run.len() && !(long_cue || f.title) && self.crosses(run, i - 1, crossing);
        f
    }

    /// The cue or title of characters `i..j` of a run (`j - i` at most
    /// `MAX_CUE`), or the longer ones it begins or ends; None if none.
    #[inline]
    pub(super) fn affix(&self, run: &Run, i: usize, j: usize) -> Option<&Affix> {
        self.affixes.get(&key(run, i, j))
    }

    /// Whether characters `k..k + 2` of a run are a common word (jieba
    /// frequency ≥ 100), cached.
    pub(super) fn crosses(&self, run: &Run, k: usize, cache: &mut Bigrams) -> bool {
        self.bigram_flags(run, k, cache).1
    }

    /// Whether characters `k..k + 2` of a run are (a dictionary word, a
    /// common one), cached per slice of the book.
    pub(super) fn bigram_flags(&self, run: &Run, k: usize, cache: &mut Bigrams) -> (bool, bool) {
        if let Some(b) = cache.at[k] {
            return b;
        }
        let code = ((run.ch(k) as u64) << 21) | run.ch(k + 1) as u64;
        let slot = (code.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - LOCAL_BIGRAM_BITS)) as usize;
        let entry = cache.local[slot];
        if entry >> 2 == code {
            let b = (entry & 2 != 0, entry & 1 != 0);
            cache.at[k] = Some(b);
            return b;
        }
        let w = run.sub(k, k + 2);
        let word = self.vocab.has_word(w);
        let b = (word, word && self.vocab.suggest_freq(w) >= 100);
        cache.local[slot] = (code << 2) | (u64::from(b.0) << 1) | u64::from(b.1);
        cache.at[k] = Some(b);
        b
    }

    /// Smallest PMI over split points (nats); 0 when a part was not counted.
    pub(super) fn cohesion(&self, w: &str, m: &Measured) -> f64 {
        let n = m.total_chars.max(1) as f64;
        let cw = m.count(w) as f64;
        if cw == 0.0 {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for (o, _) in w.char_indices().skip(1) {
            let (a, b) = (m.count(&w[..o]) as f64, m.count(&w[o..]) as f64);
            if a == 0.0 || b == 0.0 {
                continue;
            }
            best = best.min((cw * n / (a * b)).ln());
        }
        if best.is_finite() {
            best
        } else {
            0.0
        }
    }
}
