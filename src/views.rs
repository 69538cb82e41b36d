//! Views: the chapter dimension of the tables (timeline, pairs per chapter)
//! and the selections the network files and the report show. Plain data
//! computed from the count stage's tables; `output` formats it.

use crate::entity::{EntityId, EntityType};
use crate::hash::FxMap;
use crate::relate::{DialogueRow, RelationRow};
use crate::rows::{ChapterPairRow, ChapterRow, CooccurrenceRow, EntityRow, TimelineRow};
use std::collections::HashMap;
use std::sync::Arc;

/// One chapter's counts, as the count stage makes them: mentions per entity
/// and co-occurring windows per pair (low id first), each sorted by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChapterCounts {
    /// Chapter index, from 1.
    pub chapter: usize,
    pub entities: Vec<(EntityId, u64)>,
    pub pairs: Vec<((EntityId, EntityId), u64)>,
}

impl ChapterCounts {
    /// From the chapter's mentioned ids (one per mention, any order) and its
    /// pair counts.
    pub fn new(
        chapter: usize,
        mut ids: Vec<EntityId>,
        pairs: &FxMap<(EntityId, EntityId), u64>,
    ) -> ChapterCounts {
        ids.sort_unstable();
        let mut entities: Vec<(EntityId, u64)> = Vec::new();
        for id in ids {
            match entities.last_mut() {
                Some((last, n)) if *last == id => *n += 1,
                _ => entities.push((id, 1)),
            }
        }
        let mut pairs: Vec<((EntityId, EntityId), u64)> =
            pairs.iter().map(|(&p, &n)| (p, n)).collect();
        pairs.sort_unstable();
        ChapterCounts {
            chapter,
            entities,
            pairs,
        }
    }
}

/// timeline.csv: for each entity in table order, one row per chapter it is
/// mentioned in, in chapter order. Per entity the counts add up to its count.
pub fn timeline(
    entities: &[(EntityId, EntityRow)],
    chapters: &[ChapterRow],
    counts: &[ChapterCounts],
) -> Vec<TimelineRow> {
    let per_entity = by_chapter(counts, |c| &c.entities);
    let titles: HashMap<usize, &str> = chapters
        .iter()
        .map(|c| (c.index, c.title.as_str()))
        .collect();
    let mut rows = Vec::new();
    for (id, e) in entities {
        for &(chapter, count) in per_entity.get(id).into_iter().flatten() {
            rows.push(TimelineRow {
                entity: e.entity.clone(),
                kind: e.kind,
                chapter,
                title: titles.get(&chapter).copied().unwrap_or("").to_string(),
                count,
            });
        }
    }
    rows
}

/// cooccurrence-chapters.csv: for each pair in table order, one row per
/// chapter in which they meet, in chapter order. Per pair the counts add up
/// to its count (pairs left out of the table are left out here too).
pub fn chapter_pairs(
    pairs: &[((EntityId, EntityId), CooccurrenceRow)],
    counts: &[ChapterCounts],
) -> Vec<ChapterPairRow> {
    let per_pair = by_chapter(counts, |c| &c.pairs);
    let of_pair = |pair| per_pair.get(pair).into_iter().flatten();
    let mut rows = Vec::with_capacity(pairs.iter().map(|(pair, _)| of_pair(pair).count()).sum());
    for (pair, p) in pairs {
        let (source, target): (Arc<str>, Arc<str>) =
            (p.source.as_str().into(), p.target.as_str().into());
        for &(chapter, count) in of_pair(pair) {
            rows.push(ChapterPairRow {
                source: source.clone(),
                target: target.clone(),
                chapter,
                count,
            });
        }
    }
    rows
}

/// Per key (entity or pair), its chapters and counts there, in chapter order.
fn by_chapter<K: Copy + Eq + std::hash::Hash>(
    counts: &[ChapterCounts],
    list: impl Fn(&ChapterCounts) -> &[(K, u64)],
) -> FxMap<K, Vec<(usize, u64)>> {
    let mut out: FxMap<K, Vec<(usize, u64)>> = FxMap::default();
    for c in counts {
        for &(key, n) in list(c) {
            out.entry(key).or_default().push((c.chapter, n));
        }
    }
    for chapters in out.values_mut() {
        chapters.sort_unstable();
    }
    out
}

/// An entity as a node of a network view.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// `n1`, `n2`, … by rank in entities.csv (a valid XML id and NMTOKEN).
    pub id: String,
    pub label: String,
    pub kind: &'static str,
    /// Whole-book mentions.
    pub count: u64,
    pub aliases: Vec<String>,
    /// Chapters it is mentioned in, with its mentions there, in order.
    pub chapters: Vec<(usize, u64)>,
    /// Its side (the leading `member_of` / `army_of` target of
    /// relations.csv), empty when unknown; set by `assign_sides`.
    pub side: String,
}

/// A pair as an edge of a network view (node indexes into `Network::nodes`).
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub source: usize,
    pub target: usize,
    /// Whole-book count (co-occurrence.csv's `count`).
    pub weight: u64,
    pub pmi: f64,
    /// Chapters they meet in, with the count there, in order.
    pub chapters: Vec<(usize, u64)>,
}

/// A co-occurrence network: nodes in entities.csv order, edges in
/// cooccurrence.csv order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Network {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// Which part of the network a view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// Entities always kept: the most mentioned ones.
    pub always: usize,
    /// At most this many nodes.
    pub max_nodes: usize,
    /// Beyond `always`, an entity needs this many mentions.
    pub min_count: u64,
    /// Each node keeps its this-many strongest edges (an edge stays when it
    /// is among the strongest of either end); `usize::MAX` keeps all.
    pub edges_per_node: usize,
}

impl Selection {
    /// The default for GraphML and GEXF: the 20 most mentioned entities,
    /// then every other entity mentioned at least 10 times, at most 300
    /// nodes; each node's 10 strongest edges.
    pub const READABLE: Selection = Selection {
        always: 20,
        max_nodes: 300,
        min_count: 10,
        edges_per_node: 10,
    };
    /// `--graph-all`: every entity and every pair.
    pub const ALL: Selection = Selection {
        always: usize::MAX,
        max_nodes: usize::MAX,
        min_count: 0,
        edges_per_node: usize::MAX,
    };
    /// The report's network: the 20 most mentioned entities, up to 60 with
    /// at least 5 mentions, each with its 6 strongest edges.
    pub const REPORT: Selection = Selection {
        always: 20,
        max_nodes: 60,
        min_count: 5,
        edges_per_node: 6,
    };
}

/// The network of a book's tables, cut down by `selection`.
pub fn network(
    entities: &[EntityRow],
    pairs: &[CooccurrenceRow],
    timeline: &[TimelineRow],
    chapter_pairs: &[ChapterPairRow],
    selection: Selection,
) -> Network {
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    let mut nodes = Vec::new();
    for (rank, e) in entities.iter().enumerate() {
        if nodes.len() >= selection.max_nodes
            || (rank >= selection.always && e.count < selection.min_count)
        {
            break;
        }
        if index.contains_key(&(e.entity.as_str(), e.kind)) {
            continue;
        }
        index.insert((e.entity.as_str(), e.kind), nodes.len());
        nodes.push(Node {
            id: format!("n{}", rank + 1),
            label: e.entity.clone(),
            kind: e.kind,
            count: e.count,
            aliases: e.aliases.clone(),
            chapters: Vec::new(),
            side: String::new(),
        });
    }
    for t in timeline {
        if let Some(&i) = index.get(&(t.entity.as_str(), t.kind)) {
            nodes[i].chapters.push((t.chapter, t.count));
        }
    }
    // Pairs between kept nodes, in table order (strongest first).
    let mut candidates: Vec<(usize, usize, &CooccurrenceRow)> = pairs
        .iter()
        .filter_map(|p| {
            let a = *index.get(&(p.source.as_str(), p.source_type))?;
            let b = *index.get(&(p.target.as_str(), p.target_type))?;
            Some((a, b, p))
        })
        .collect();
    if selection.edges_per_node != usize::MAX {
        let mut degree = vec![0usize; nodes.len()];
        let mut keep = vec![false; candidates.len()];
        for (k, &(a, b, _)) in candidates.iter().enumerate() {
            if degree[a] < selection.edges_per_node || degree[b] < selection.edges_per_node {
                keep[k] = true;
                degree[a] += 1;
                degree[b] += 1;
            }
        }
        let mut k = 0;
        candidates.retain(|_| {
            k += 1;
            keep[k - 1]
        });
    }
    let mut edge_index: HashMap<(&str, &str), usize> = HashMap::new();
    let mut edges = Vec::with_capacity(candidates.len());
    for (a, b, p) in candidates {
        edge_index
            .entry((p.source.as_str(), p.target.as_str()))
            .or_insert(edges.len());
        edges.push(Edge {
            source: a,
            target: b,
            weight: p.count,
            pmi: p.pmi.parse().unwrap_or(0.0),
            chapters: Vec::new(),
        });
    }
    for c in chapter_pairs {
        if let Some(&i) = edge_index.get(&(&*c.source, &*c.target)) {
            edges[i].chapters.push((c.chapter, c.count));
        }
    }
    Network { nodes, edges }
}

/// The entity types in the order views list them.
pub const TYPES: [EntityType; 4] = [
    EntityType::Person,
    EntityType::Place,
    EntityType::Army,
    EntityType::Faction,
];

/// A book's figures: the report's header and `analyze`'s summary line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    pub chapters: usize,
    pub characters: usize,
    pub words: usize,
    pub mentions: usize,
    /// Entities per type, in the order person, place, army, faction.
    pub entities: Vec<(&'static str, usize)>,
}

/// The figures of a book's tables.
pub fn figures(chapters: &[ChapterRow], entities: &[EntityRow]) -> Figures {
    let kinds = TYPES.map(EntityType::as_str);
    Figures {
        chapters: chapters.len(),
        characters: chapters.iter().map(|c| c.characters).sum(),
        words: chapters.iter().map(|c| c.words).sum(),
        mentions: chapters.iter().map(|c| c.mentions).sum(),
        entities: kinds
            .iter()
            .map(|&k| (k, entities.iter().filter(|e| e.kind == k).count()))
            .collect(),
    }
}

/// What `report.html` shows, chosen from a book's tables.
#[derive(Debug, Clone)]
pub struct Report<'t> {
    /// The book's name.
    pub title: String,
    pub figures: Figures,
    pub chapters: &'t [ChapterRow],
    /// The main entities (`Selection::REPORT`) and their strongest pairs.
    pub network: Network,
    /// The dispersion view shows the first this-many nodes of `network`.
    pub dispersion: usize,
    /// Per type (person, place, army, faction), its most mentioned entities
    /// with their rank in entities.csv (from 1): at least 15, and every
    /// entity of the network.
    pub top: Vec<(&'static str, Vec<(usize, &'t EntityRow)>)>,
    /// Who speaks to whom, most frequent first (`top_dialogue`); set by the caller.
    pub dialogue: Vec<(String, String, u64)>,
}

/// Chooses what the report shows.
pub fn report<'t>(
    title: &str,
    chapters: &'t [ChapterRow],
    entities: &'t [EntityRow],
    pairs: &[CooccurrenceRow],
    timeline: &[TimelineRow],
    chapter_pairs: &[ChapterPairRow],
) -> Report<'t> {
    let network = network(entities, pairs, timeline, chapter_pairs, Selection::REPORT);
    let in_network: std::collections::HashSet<(&str, &str)> = network
        .nodes
        .iter()
        .map(|n| (n.label.as_str(), n.kind))
        .collect();
    let top = TYPES
        .map(EntityType::as_str)
        .iter()
        .map(|&kind| {
            let of_kind: Vec<(usize, &EntityRow)> = entities
                .iter()
                .enumerate()
                .filter(|(_, e)| e.kind == kind)
                .map(|(i, e)| (i + 1, e))
                .collect();
            let last_node = of_kind
                .iter()
                .rposition(|(_, e)| in_network.contains(&(e.entity.as_str(), e.kind)))
                .map_or(0, |i| i + 1);
            let n = last_node.max(15).min(of_kind.len());
            (kind, of_kind[..n].to_vec())
        })
        .collect();
    Report {
        title: title.to_string(),
        figures: figures(chapters, entities),
        chapters,
        dispersion: network.nodes.len().min(40),
        network,
        top,
        dialogue: Vec::new(),
    }
}

/// Gives each person and army node its side: the target of its
/// `member_of` / `army_of` row with the highest count (ties: the name first
/// in code-point order), as relations.csv says.
pub fn assign_sides(net: &mut Network, relations: &[RelationRow]) {
    let mut best: HashMap<&str, (u64, &str)> = HashMap::new();
    for r in relations {
        if r.relation != "member_of" && r.relation != "army_of" {
            continue;
        }
        let e = best.entry(r.source.as_str()).or_insert((0, ""));
        if r.count > e.0 || (r.count == e.0 && r.target.as_str() < e.1) {
            *e = (r.count, r.target.as_str());
        }
    }
    for n in &mut net.nodes {
        if n.kind == "person" || n.kind == "army" {
            if let Some(&(_, side)) = best.get(n.label.as_str()) {
                n.side = side.to_string();
            }
        }
    }
}

/// Dialogue pairs for the report: the most frequent, at most `max`.
pub fn top_dialogue(rows: &[DialogueRow], max: usize) -> Vec<(String, String, u64)> {
    let mut v: Vec<(String, String, u64)> = rows
        .iter()
        .map(|d| (d.speaker.clone(), d.addressee.clone(), d.count))
        .collect();
    v.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| (&a.0, &a.1).cmp(&(&b.0, &b.1))));
    v.truncate(max);
    v
}

/// Runs of consecutive chapters, as inclusive (first, last) pairs.
pub fn runs(chapters: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for c in chapters {
        match out.last_mut() {
            Some((_, last)) if *last + 1 == c => *last = c,
            Some((_, last)) if *last == c => {}
            _ => out.push((c, c)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapter_counts_add_up_mentions_per_id() {
        let mut pairs = FxMap::default();
        pairs.insert((1, 2), 3);
        let c = ChapterCounts::new(4, vec![2, 1, 2, 2], &pairs);
        assert_eq!(c.entities, vec![(1, 1), (2, 3)]);
        assert_eq!(c.pairs, vec![((1, 2), 3)]);
    }

    fn entity(name: &str, count: u64) -> EntityRow {
        EntityRow {
            entity: name.to_string(),
            kind: "person",
            count,
            chapters: 1,
            first_chapter: 1,
            original: name.to_string(),
            variants: Vec::new(),
            aliases: Vec::new(),
            evidence: Vec::new(),
            confidence: "1.00".into(),
        }
    }

    fn pair(a: &str, b: &str, count: u64) -> CooccurrenceRow {
        CooccurrenceRow {
            source: a.to_string(),
            target: b.to_string(),
            source_type: "person",
            target_type: "person",
            count,
            pmi: "1.000".into(),
        }
    }

    #[test]
    fn selection_keeps_the_most_mentioned_then_the_frequent_and_the_strongest_pairs() {
        // 30 entities: e0 (100 mentions) … e29 (1 mention) in table order.
        let entities: Vec<EntityRow> = (0..30)
            .map(|i| entity(&format!("e{i}"), if i < 25 { 100 - i } else { 1 }))
            .collect();
        // e0 meets everyone, strongest first; e1 meets e2.
        let mut pairs: Vec<CooccurrenceRow> = (1..30)
            .map(|i| pair("e0", &format!("e{i}"), 50 - i as u64))
            .collect();
        pairs.push(pair("e1", "e2", 5));
        let selection = Selection {
            always: 20,
            max_nodes: 300,
            min_count: 10,
            edges_per_node: 3,
        };
        let net = network(&entities, &pairs, &[], &[], selection);
        // The first 20 always, then e20..e24 (at least 10 mentions), not the rest.
        assert_eq!(net.nodes.len(), 25);
        assert_eq!(net.nodes[0].id, "n1");
        assert_eq!(net.nodes[24].label, "e24");
        // An edge stays when it is among the 3 strongest of either end: e0's
        // pairs with the kept nodes (each one's strongest), and e1–e2.
        let edges: Vec<(usize, usize)> = net.edges.iter().map(|e| (e.source, e.target)).collect();
        let mut expected: Vec<(usize, usize)> = (1..25).map(|i| (0, i)).collect();
        expected.push((1, 2));
        assert_eq!(edges, expected);
        // e0–e3 made weaker than e0's 3 strongest, and e3 given 3 stronger
        // pairs: it is nobody's top 3 and goes.
        let mut dense = pairs.clone();
        dense.retain(|p| p.target != "e3");
        dense.push(pair("e0", "e3", 30));
        for k in 4..7 {
            dense.push(pair("e3", &format!("e{k}"), 60));
        }
        dense.sort_by_key(|p| std::cmp::Reverse(p.count));
        let net = network(&entities, &dense, &[], &[], selection);
        assert!(!net.edges.iter().any(|e| (e.source, e.target) == (0, 3)));
        let all = network(&entities, &pairs, &[], &[], Selection::ALL);
        assert_eq!((all.nodes.len(), all.edges.len()), (30, 30));
        let capped = Selection {
            max_nodes: 22,
            ..selection
        };
        assert_eq!(network(&entities, &pairs, &[], &[], capped).nodes.len(), 22);
    }

    #[test]
    fn runs_join_consecutive_chapters() {
        assert_eq!(runs([1, 2, 3, 5, 7, 8]), vec![(1, 3), (5, 5), (7, 8)]);
        assert!(runs([]).is_empty());
    }
}
