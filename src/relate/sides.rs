//! The book's relation rows, and each person's and army's side.
//!
//! Evidence of all chapters is merged in chapter order. Factions are grouped
//! into sides by name (宋朝, 大宋 → 宋; the most mentioned name stands for
//! the side). A person's or army's side is decided from what the book says:
//! the sentences that state it (member_of, army_of), then links spread
//! it, round by round until nothing changes: an army takes its commander's
//! side and the reverse, one who is ordered takes the side of the one who
//! orders, those named side by side share one, and one who fights a person
//! or army of one side, or a faction, is on the side that faction is at war
//! with (the faction it fights most; or, for the two sides with the most
//! evidence, each other). A member_of (army_of) row's count is its
//! evidence: sentences that state it, each counted `STATED_WEIGHT` times
//! (a sentence that says it is worth more than one that links), plus for
//! each link to someone of that side the link's sentences (at most
//! `LINK_CAP`); the leading row is the side.

use super::relations::{Evidence, Rel};
use super::rows::RelationRow;
use crate::entity::{Catalog, EntityId, EntityType};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// At most this much evidence from one link.
const LINK_CAP: u64 = 5;
/// A side named fewer times than this is no side's enemy.
const MIN_ENEMY_MENTIONS: u64 = 10;
/// A sentence that states a side counts this many times a link's sentence.
const STATED_WEIGHT: u64 = 2;
/// Rounds of propagation at most.
const ROUNDS: usize = 12;

#[derive(Debug, Clone, Default)]
struct Agg {
    count: u64,
    chapters: BTreeSet<usize>,
    first: usize,
    example: String,
}

impl Agg {
    fn add(&mut self, chapter: usize, count: u64, example: &str) {
        if self.count == 0 {
            self.first = chapter;
            self.example = example.to_string();
        }
        self.count += count;
        self.chapters.insert(chapter);
    }

    fn absorb(&mut self, other: &Agg, count: u64) {
        if count == 0 {
            return;
        }
        if self.count == 0 || other.first < self.first {
            self.first = other.first;
            self.example = other.example.clone();
        }
        self.count += count;
        self.chapters.extend(other.chapters.iter().copied());
    }
}

/// The rows of relations.csv: commands, member_of, army_of, fights, at;
/// count descending, then relation, source and target.
pub fn relation_rows(
    evidence: &[Evidence],
    catalog: &Catalog,
    names: &[String],
) -> Vec<RelationRow> {
    let kind = |id: EntityId| catalog.get(id).kind;
    let mut merged: BTreeMap<(Rel, EntityId, EntityId), Agg> = BTreeMap::new();
    let mut mentions: HashMap<EntityId, u64> = HashMap::new();
    let mut dynasty: HashMap<EntityId, u64> = HashMap::new();
    for ev in evidence {
        for &(id, n) in &ev.dynasty {
            *dynasty.entry(id).or_default() += n;
        }
        for &(id, n) in &ev.mentions {
            *mentions.entry(id).or_default() += n;
        }
        for item in &ev.items {
            let (mut a, mut b) = (item.source, item.target);
            if matches!(item.rel, Rel::Fights | Rel::Ally) && names[a as usize] > names[b as usize]
            {
                std::mem::swap(&mut a, &mut b);
            }
            merged
                .entry((item.rel, a, b))
                .or_default()
                .add(ev.chapter, item.count, &item.example);
        }
    }

    let clusters = Clusters::new(catalog, &mentions, names);
    let mut rows = Vec::new();
    for (&(rel, a, b), agg) in &merged {
        if matches!(rel, Rel::Commands | Rel::Fights | Rel::At) {
            rows.push(row(names, a, rel, b, agg));
        }
    }

    // Nodes: persons and armies. Direct evidence and links.
    let n_sides = clusters.reps.len();
    let mut direct: BTreeMap<EntityId, Vec<Agg>> = BTreeMap::new();
    let mut against: BTreeMap<EntityId, Vec<Agg>> = BTreeMap::new();
    let mut links: BTreeMap<EntityId, Vec<(EntityId, bool, &Agg)>> = BTreeMap::new();
    let mut war: Vec<Vec<u64>> = vec![vec![0; n_sides]; n_sides];
    let mut court: BTreeMap<EntityId, &Agg> = BTreeMap::new();
    let mut near: BTreeMap<EntityId, Vec<(EntityId, &Agg)>> = BTreeMap::new();
    let node = |id: EntityId| matches!(kind(id), EntityType::Person | EntityType::Army);
    for (&(rel, a, b), agg) in &merged {
        match rel {
            Rel::MemberOf | Rel::ArmyOf => {
                if let Some(c) = clusters.of(b) {
                    let d = direct
                        .entry(a)
                        .or_insert_with(|| vec![Agg::default(); n_sides]);
                    d[c].absorb(agg, STATED_WEIGHT * agg.count);
                }
            }
            Rel::Fights => match (node(a), node(b)) {
                (true, true) => {
                    links.entry(a).or_default().push((b, false, agg));
                    links.entry(b).or_default().push((a, false, agg));
                }
                (true, false) | (false, true) => {
                    let (n, f) = if node(a) { (a, b) } else { (b, a) };
                    if let Some(c) = clusters.of(f) {
                        against
                            .entry(n)
                            .or_insert_with(|| vec![Agg::default(); n_sides])[c]
                            .absorb(agg, agg.count);
                    }
                }
                (false, false) => {
                    if let (Some(x), Some(y)) = (clusters.of(a), clusters.of(b)) {
                        if x != y {
                            war[x][y] += agg.count;
                            war[y][x] += agg.count;
                        }
                    }
                }
            },
            Rel::Commands | Rel::Serves | Rel::Ally => {
                if node(a) && node(b) {
                    links.entry(a).or_default().push((b, true, agg));
                    links.entry(b).or_default().push((a, true, agg));
                }
            }
            Rel::Court => {
                court.insert(a, agg);
            }
            Rel::Near => near.entry(a).or_default().push((b, agg)),
            Rel::At => {}
        }
    }
    // Which side each side is at war with, learned from the book: factions
    // that fight, and people and armies whose side is stated fighting a
    // faction or each other. A side the book shows at war with no one, if
    // it is one of the two with the most stated members, is at war with the
    // other.
    let stated: HashMap<EntityId, usize> = direct
        .iter()
        .filter_map(|(&id, d)| {
            (0..n_sides)
                .filter(|&c| d[c].count > 0)
                .max_by(|&x, &y| d[x].count.cmp(&d[y].count).then(y.cmp(&x)))
                .map(|c| (id, c))
        })
        .collect();
    for (id, ag) in &against {
        if let Some(&s) = stated.get(id) {
            for (f, agg) in ag.iter().enumerate() {
                if f != s {
                    war[s][f] += agg.count;
                    war[f][s] += agg.count;
                }
            }
        }
    }
    for (id, ls) in &links {
        for &(other, friend, agg) in ls {
            if let (false, Some(&s), Some(&t)) = (friend, stated.get(id), stated.get(&other)) {
                if s != t {
                    // each pair is seen from both ends: half each
                    war[s][t] += agg.count;
                }
            }
        }
    }
    let mut total = vec![0u64; n_sides];
    for &c in stated.values() {
        total[c] += 1;
    }
    let mut ranked: Vec<usize> = (0..n_sides).filter(|&c| total[c] > 0).collect();
    ranked.sort_by(|&x, &y| total[y].cmp(&total[x]).then(x.cmp(&y)));
    // A side the book names fewer than MIN_ENEMY_MENTIONS times (a dynasty
    // of the past named in passing, 有夏) is no one's enemy in the story.
    let mut named = vec![0u64; n_sides];
    for (id, &n) in &mentions {
        if let Some(c) = clusters.of(*id) {
            named[c] += n;
        }
    }
    let enemy: Vec<Option<usize>> = (0..n_sides)
        .map(|c| {
            let best = (0..n_sides)
                .filter(|&d| war[c][d] > 0 && named[d] >= MIN_ENEMY_MENTIONS)
                .max_by(|&x, &y| war[c][x].cmp(&war[c][y]).then(y.cmp(&x)));
            best.or(match ranked.as_slice() {
                [x, y, ..] if *x == c => Some(*y),
                [x, y, ..] if *y == c => Some(*x),
                _ => None,
            })
        })
        .collect();

    // Persons whose side no sentence states and who fight no one, named
    // with the court, and the court's troops whose side no sentence states:
    // the reigning dynasty (the side named most often as X朝).
    let fighting: BTreeSet<EntityId> = against
        .keys()
        .copied()
        .chain(
            links
                .iter()
                .filter(|(_, ls)| ls.iter().any(|l| !l.1))
                .map(|(&id, _)| id),
        )
        .collect();
    let home = clusters.home(&dynasty);
    for &id in court.keys() {
        // The court's troops fight for it: fighting does not make them doubtful.
        let doubtful = kind(id) == EntityType::Person && fighting.contains(&id);
        if direct.contains_key(&id) || doubtful {
            continue;
        }
        if let (Some(home), Some(agg)) = (home, court.get(&id)) {
            let mut d = vec![Agg::default(); n_sides];
            d[home].absorb(agg, agg.count.min(LINK_CAP));
            direct.insert(id, d);
        }
    }

    // Propagation, all nodes at once per round (order-independent).
    let mut all: BTreeSet<EntityId> = direct.keys().copied().collect();
    all.extend(links.keys().copied());
    all.extend(against.keys().copied());
    let nodes: Vec<EntityId> = all.into_iter().collect();
    let mut side: HashMap<EntityId, usize> = HashMap::new();
    let scores = |id: EntityId, side: &HashMap<EntityId, usize>| -> Vec<Agg> {
        let mut s = direct
            .get(&id)
            .cloned()
            .unwrap_or_else(|| vec![Agg::default(); n_sides]);
        if let Some(ag) = against.get(&id) {
            for (f, agg) in ag.iter().enumerate() {
                if let Some(c) = enemy[f] {
                    s[c].absorb(agg, agg.count.min(LINK_CAP));
                }
            }
        }
        for &(other, friend, agg) in links.get(&id).map_or(&[][..], |v| v.as_slice()) {
            let Some(&o) = side.get(&other) else { continue };
            let c = if friend { Some(o) } else { enemy[o] };
            if let Some(c) = c {
                s[c].absorb(agg, agg.count.min(LINK_CAP));
            }
        }
        s
    };
    // Counts only while propagating; the rows' chapters and examples at the end.
    let counts = |id: EntityId, side: &HashMap<EntityId, usize>| -> Vec<u64> {
        let mut s: Vec<u64> = direct
            .get(&id)
            .map_or_else(|| vec![0; n_sides], |d| d.iter().map(|a| a.count).collect());
        if let Some(ag) = against.get(&id) {
            for (f, agg) in ag.iter().enumerate() {
                if let Some(c) = enemy[f] {
                    s[c] += agg.count.min(LINK_CAP);
                }
            }
        }
        for &(other, friend, agg) in links.get(&id).map_or(&[][..], |v| v.as_slice()) {
            let Some(&o) = side.get(&other) else { continue };
            if let Some(c) = if friend { Some(o) } else { enemy[o] } {
                s[c] += agg.count.min(LINK_CAP);
            }
        }
        s
    };
    let lead = |s: &[u64]| -> Option<usize> {
        (0..s.len()).filter(|&c| s[c] > 0).max_by(|&x, &y| {
            s[x].cmp(&s[y])
                .then_with(|| clusters.rep_name(y, names).cmp(clusters.rep_name(x, names)))
        })
    };
    for (&id, d) in &direct {
        let c: Vec<u64> = d.iter().map(|a| a.count).collect();
        if let Some(c) = lead(&c) {
            side.insert(id, c);
        }
    }
    for _ in 0..ROUNDS {
        let next: HashMap<EntityId, usize> = nodes
            .iter()
            .filter_map(|&id| lead(&counts(id, &side)).map(|c| (id, c)))
            .collect();
        if next == side {
            break;
        }
        side = next;
    }
    // Persons still without a side: the factions named in their sentences.
    for (&id, ns) in &near {
        if kind(id) != EntityType::Person || side.contains_key(&id) {
            continue;
        }
        let mut d = vec![Agg::default(); n_sides];
        for (f, agg) in ns {
            if let Some(c) = clusters.of(*f) {
                d[c].absorb(agg, agg.count);
            }
        }
        for (c, agg) in d.iter().enumerate() {
            if agg.count > 0 {
                rows.push(row(names, id, Rel::MemberOf, clusters.reps[c], agg));
            }
        }
    }
    for &id in &nodes {
        let rel = match kind(id) {
            EntityType::Person => Rel::MemberOf,
            _ => Rel::ArmyOf,
        };
        for (c, agg) in scores(id, &side).iter().enumerate() {
            if agg.count > 0 {
                rows.push(row(names, id, rel, clusters.reps[c], agg));
            }
        }
    }
    rows.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.relation.cmp(b.relation))
            .then_with(|| a.source.cmp(&b.source))
            .then_with(|| a.target.cmp(&b.target))
    });
    rows
}

fn row(names: &[String], a: EntityId, rel: Rel, b: EntityId, agg: &Agg) -> RelationRow {
    RelationRow {
        source: names[a as usize].clone(),
        relation: rel.as_str(),
        target: names[b as usize].clone(),
        count: agg.count,
        chapters: agg.chapters.len() as u64,
        first_chapter: agg.first,
        example: agg.example.clone(),
    }
}

/// Factions grouped into sides: a faction whose name holds another's
/// (宋朝, 大宋 ⊃ 宋) is on that one's side.
struct Clusters {
    /// Side of each faction mentioned in the book.
    of: HashMap<EntityId, usize>,
    /// The faction that names each side (its most mentioned).
    reps: Vec<EntityId>,
}

impl Clusters {
    fn new(catalog: &Catalog, mentions: &HashMap<EntityId, u64>, names: &[String]) -> Clusters {
        let mut factions: Vec<EntityId> = mentions
            .keys()
            .copied()
            .filter(|&id| catalog.get(id).kind == EntityType::Faction)
            .collect();
        factions.sort_by(|&a, &b| {
            let (x, y) = (&catalog.get(a).name, &catalog.get(b).name);
            x.chars()
                .count()
                .cmp(&y.chars().count())
                .then_with(|| x.cmp(y))
        });
        let mut root: HashMap<EntityId, EntityId> = HashMap::new();
        for (i, &f) in factions.iter().enumerate() {
            let name = &catalog.get(f).name;
            let parent = factions[..i]
                .iter()
                .find(|&&g| name.contains(catalog.get(g).name.as_str()))
                .map(|g| root[g])
                .unwrap_or(f);
            root.insert(f, parent);
        }
        let mut groups: BTreeMap<EntityId, Vec<EntityId>> = BTreeMap::new();
        for &f in &factions {
            groups.entry(root[&f]).or_default().push(f);
        }
        let mut of = HashMap::new();
        let mut reps = Vec::new();
        for members in groups.values() {
            let rep = *members
                .iter()
                .max_by(|&&a, &&b| {
                    mentions[&a]
                        .cmp(&mentions[&b])
                        .then_with(|| names[b as usize].cmp(&names[a as usize]))
                })
                .expect("a group has members");
            for &m in members {
                of.insert(m, reps.len());
            }
            reps.push(rep);
        }
        Clusters { of, reps }
    }

    /// The side named most often as X朝 (宋朝), if one is.
    fn home(&self, dynasty: &HashMap<EntityId, u64>) -> Option<usize> {
        let mut per: BTreeMap<usize, u64> = BTreeMap::new();
        for (id, &n) in dynasty {
            if let Some(c) = self.of(*id) {
                *per.entry(c).or_default() += n;
            }
        }
        let best = per.values().copied().max()?;
        let mut top = per.iter().filter(|(_, &n)| n == best);
        let (&c, _) = top.next()?;
        top.next().is_none().then_some(c)
    }

    fn of(&self, id: EntityId) -> Option<usize> {
        self.of.get(&id).copied()
    }

    fn rep_name<'n>(&self, c: usize, names: &'n [String]) -> &'n str {
        &names[self.reps[c] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::super::relations::{Evidence, Item};
    use super::*;

    use super::super::test_entity as e;

    /// The relation rows of one chapter's evidence over invented entities:
    /// items as (relation, source, target, count), mentions by name.
    fn rows_of(
        entities: &[(&str, EntityType)],
        items: &[(Rel, &str, &str, u64)],
        mentions: &[(&str, u64)],
    ) -> Vec<RelationRow> {
        let catalog = Catalog::new(entities.iter().map(|&(n, k)| e(n, k)).collect());
        let id = |n: &str| catalog.entities().iter().position(|x| x.name == n).unwrap() as EntityId;
        let names: Vec<String> = catalog.entities().iter().map(|x| x.name.clone()).collect();
        let ev = Evidence {
            chapter: 1,
            items: items
                .iter()
                .map(|&(rel, a, b, count)| Item {
                    rel,
                    source: id(a),
                    target: id(b),
                    count,
                    example: format!("{a}{b}"),
                })
                .collect(),
            dynasty: vec![],
            mentions: mentions.iter().map(|&(n, c)| (id(n), c)).collect(),
        };
        relation_rows(&[ev], &catalog, &names)
    }

    /// The leading target of `who`'s `rel` rows.
    fn leading(rows: &[RelationRow], who: &str, rel: &str) -> Option<String> {
        rows.iter()
            .find(|r| r.source == who && r.relation == rel)
            .map(|r| r.target.clone())
    }

    #[test]
    fn a_side_named_in_passing_is_no_ones_enemy() {
        use EntityType::*;
        let rows = rows_of(
            &[
                ("西秦", Faction),
                ("东楚", Faction),
                ("古虞", Faction),
                ("甲一", Person),
                ("乙二", Person),
                ("丁四", Person),
            ],
            &[
                (Rel::MemberOf, "甲一", "西秦", 2),
                (Rel::MemberOf, "乙二", "东楚", 2),
                // 甲一 once fought the dynasty of old the book names in passing
                (Rel::Fights, "甲一", "古虞", 5),
                (Rel::Fights, "乙二", "甲一", 1),
                // 丁四 fights 甲一 (西秦): the enemy of 西秦 in the story is 东楚
                (Rel::Fights, "丁四", "甲一", 3),
            ],
            &[("西秦", 30), ("东楚", 20), ("古虞", 3)],
        );
        assert_eq!(leading(&rows, "丁四", "member_of").as_deref(), Some("东楚"));
    }

    #[test]
    fn sides_spread_from_stated_ones_to_commanders_allies_and_enemies() {
        use EntityType::*;
        let rows = rows_of(
            &[
                ("北燕", Faction),
                ("大北燕", Faction),
                ("南梁", Faction),
                ("韩铁衣", Person),
                ("苏青禾", Person),
                ("石敢当", Person),
                ("柳七", Person),
                ("飞熊军", Army),
            ],
            &[
                (Rel::MemberOf, "韩铁衣", "大北燕", 2),
                (Rel::MemberOf, "苏青禾", "南梁", 1),
                (Rel::Fights, "北燕", "南梁", 1),
                // 石敢当 fights 苏青禾 (南梁) → 北燕
                (Rel::Fights, "石敢当", "苏青禾", 3),
                // 柳七 is ordered by 韩铁衣 → 北燕
                (Rel::Serves, "韩铁衣", "柳七", 1),
                // 飞熊军 commanded by 苏青禾 → 南梁
                (Rel::Commands, "苏青禾", "飞熊军", 1),
            ],
            &[("北燕", 5), ("大北燕", 1), ("南梁", 4), ("韩铁衣", 3)],
        );
        let leading = |who: &str, rel: &str| leading(&rows, who, rel);
        assert_eq!(leading("韩铁衣", "member_of").as_deref(), Some("北燕"));
        assert_eq!(leading("苏青禾", "member_of").as_deref(), Some("南梁"));
        assert_eq!(leading("石敢当", "member_of").as_deref(), Some("北燕"));
        assert_eq!(leading("柳七", "member_of").as_deref(), Some("北燕"));
        assert_eq!(leading("飞熊军", "army_of").as_deref(), Some("南梁"));
        assert!(rows
            .iter()
            .any(|r| r.relation == "fights" && r.source == "石敢当" && r.target == "苏青禾"));
    }

    #[test]
    fn a_stated_side_outweighs_as_many_sentences_of_links() {
        use EntityType::*;
        let rows = rows_of(
            &[
                ("北燕", Faction),
                ("南梁", Faction),
                ("韩铁衣", Person),
                ("苏青禾", Person),
                ("柯北辰", Person),
            ],
            &[
                (Rel::MemberOf, "韩铁衣", "北燕", 3),
                (Rel::MemberOf, "苏青禾", "南梁", 3),
                // 柯北辰 is said once to be of 南梁 (乃南梁之臣) and is named
                // side by side with 韩铁衣 (北燕) in one sentence
                (Rel::MemberOf, "柯北辰", "南梁", 1),
                (Rel::Ally, "柯北辰", "韩铁衣", 1),
            ],
            &[("北燕", 5), ("南梁", 5)],
        );
        assert_eq!(
            leading(&rows, "柯北辰", "member_of").as_deref(),
            Some("南梁")
        );
        let count = |target: &str| {
            rows.iter()
                .find(|r| r.source == "柯北辰" && r.relation == "member_of" && r.target == target)
                .map(|r| r.count)
        };
        assert_eq!((count("南梁"), count("北燕")), (Some(2), Some(1)));
    }
}
