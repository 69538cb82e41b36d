//! Relation evidence of a chapter, read sentence by sentence from the text
//! between two neighbouring mentions (the gap):
//!
//! | relation | pattern (gap cue class of `dict/relations.txt`) |
//! |---|---|
//! | commands  | person `cmd` army (X率Y军, X麾下Y兵); army `head` person (Y军主将X) |
//! | member_of | faction `title` person (Y国大将X, Y将X); person `is` faction (X乃Y国…); person `join` faction (投Y, 降Y; not 弃暗投明) |
//! | army_of   | an army named after its faction (宋兵 → 宋); faction 之/的 army |
//! | fights    | any two of person, army, faction with a `fight` cue between them (攻, 战, 杀, 围, 败 …), or X与Y + `duel` (X与Y交锋) |
//! | at        | army or person `at` place (屯, 守, 驻, 据, 攻, 取 …) |
//! | serves    | person `serve` person (令X, 遣X), person `obey` person (奉X之命): not a table row, a link for sides |
//! | ally      | person/army `with` person/army not followed by a duel (X、Y, X同Y); person `kin` person, perhaps after 之 (X长子Y, X之妻Y): a link for sides |
//!
//! A cue right after a negation (不曾攻, 未战) does not count. An intention
//! (欲攻, 要战) does: it names the two sides of a war whether the battle
//! happens or not, and no column claims an outcome.

use super::{ends_with_any, starts_with_any, Cues, Span};
use crate::book::ChapterText;
use crate::chapter::sentences;
use crate::entity::{EntityId, EntityType};
use std::collections::{HashMap, HashSet};

use super::quotes::Quote;

/// A relation (or a link that only the side decision reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    Commands,
    MemberOf,
    ArmyOf,
    Fights,
    At,
    Serves,
    Ally,
    /// A person named with words of the court, or an army named as the
    /// court's troops (source = target).
    Court,
    /// A person and a faction named in one sentence.
    Near,
}

impl Rel {
    pub fn as_str(self) -> &'static str {
        match self {
            Rel::Commands => "commands",
            Rel::MemberOf => "member_of",
            Rel::ArmyOf => "army_of",
            Rel::Fights => "fights",
            Rel::At => "at",
            Rel::Serves => "serves",
            Rel::Ally => "ally",
            Rel::Court => "court",
            Rel::Near => "near",
        }
    }
}

/// One relation's evidence in one chapter.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub rel: Rel,
    pub source: EntityId,
    pub target: EntityId,
    pub count: u64,
    /// The first sentence that states it, as written.
    pub example: String,
}

/// A chapter's evidence: items in order of first occurrence, and the
/// mention counts of its entities.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    pub chapter: usize,
    pub items: Vec<Item>,
    pub mentions: Vec<(EntityId, u64)>,
    /// Faction mentions written as the reigning dynasty (X朝, X天下,
    /// X之社稷), by entity.
    pub dynasty: Vec<(EntityId, u64)>,
}

const GAP_MAX: usize = 10;
const BREAK: [char; 10] = ['。', '！', '？', '；', '：', '“', '”', '「', '」', '\n'];

/// The relation evidence of one chapter.
pub fn evidence(
    chapter_no: usize,
    chapter: &ChapterText,
    spans: &[Span],
    _quotes: &[Quote],
    cues: &Cues,
    court_armies: &HashSet<EntityId>,
) -> Evidence {
    let text = chapter.text.text.as_str();
    let mut items: Vec<Item> = Vec::new();
    let mut index: HashMap<(Rel, EntityId, EntityId), usize> = HashMap::new();
    let mut mentions: HashMap<EntityId, u64> = HashMap::new();
    let mut dynasty: HashMap<EntityId, u64> = HashMap::new();
    for s in spans {
        *mentions.entry(s.entity).or_default() += 1;
        if s.kind == EntityType::Faction && reigning(text, s, cues) {
            *dynasty.entry(s.entity).or_default() += 1;
        }
    }
    let mut k = 0;
    for range in sentences(text) {
        while k < spans.len() && spans[k].start < range.start {
            k += 1;
        }
        let mut end = k;
        while end < spans.len() && spans[end].end <= range.end {
            end += 1;
        }
        let mut found = read_sentence(text, &spans[k..end], cues);
        let sentence = &text[range.start..range.end];
        let here = &spans[k..end];
        for p in here.iter().filter(|s| s.kind == EntityType::Person) {
            for f in here.iter().filter(|s| s.kind == EntityType::Faction) {
                if !found.contains(&(Rel::Near, p.entity, f.entity)) {
                    found.push((Rel::Near, p.entity, f.entity));
                }
            }
        }
        let court = cues.court.iter().any(|c| sentence.contains(c));
        for s in here {
            let by_name = s.kind == EntityType::Army && court_armies.contains(&s.entity);
            if (by_name || court && s.kind == EntityType::Person)
                && !found.contains(&(Rel::Court, s.entity, s.entity))
            {
                found.push((Rel::Court, s.entity, s.entity));
            }
        }
        for (rel, a, b) in found {
            let key = (rel, a, b);
            match index.get(&key) {
                Some(&i) => items[i].count += 1,
                None => {
                    index.insert(key, items.len());
                    items.push(Item {
                        rel,
                        source: a,
                        target: b,
                        count: 1,
                        example: chapter.text.original(range.start, range.end).to_string(),
                    });
                }
            }
        }
        k = end;
    }
    let mut mentions: Vec<(EntityId, u64)> = mentions.into_iter().collect();
    mentions.sort_unstable();
    let mut dynasty: Vec<(EntityId, u64)> = dynasty.into_iter().collect();
    dynasty.sort_unstable();
    Evidence {
        chapter: chapter_no,
        items,
        mentions,
        dynasty,
    }
}

/// The relations one sentence states, in order. `spans` are its mentions.
pub fn read_sentence(text: &str, spans: &[Span], cues: &Cues) -> Vec<(Rel, EntityId, EntityId)> {
    use EntityType::*;
    let mut out = Vec::new();
    // Units: an army with the faction inside its name counts once, as the army.
    let mut units: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        if let Some(last) = units.last() {
            if last.kind == Army && s.kind == Faction && s.start == last.start {
                out.push((Rel::ArmyOf, last.entity, s.entity));
                continue;
            }
        }
        units.push(*s);
    }
    for w in units.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.entity == b.entity || a.end > b.start {
            continue;
        }
        let gap = &text[a.end..b.start];
        if gap.chars().count() > GAP_MAX || gap.contains(BREAK) {
            continue;
        }
        let last_clause = gap.rsplit(['，', ',']).next().unwrap_or(gap);
        let short = gap.chars().count() <= 4 && !gap.contains('，');
        let after = &text[b.end..];
        let fighter = |k: EntityType| matches!(k, Person | Army | Faction);
        let cue_in = |list: &[&'static str]| cue_in(last_clause, list, cues);
        match (a.kind, b.kind) {
            (Person, Army) if short && cue_in(&cues.cmd) => {
                out.push((Rel::Commands, a.entity, b.entity));
                continue;
            }
            (Army, Person) if short && ends_with_any(gap, &cues.head).is_some() => {
                out.push((Rel::Commands, b.entity, a.entity));
                continue;
            }
            (Faction, Person) if short && is_title(gap, cues) => {
                out.push((Rel::MemberOf, b.entity, a.entity));
                continue;
            }
            (Faction, Army) if matches!(gap, "" | "之" | "的") => {
                out.push((Rel::ArmyOf, b.entity, a.entity));
                continue;
            }
            (Person, Faction) if short => {
                if starts_with_any(gap, &cues.is).is_some() {
                    out.push((Rel::MemberOf, a.entity, b.entity));
                    continue;
                }
                if let Some(j) = ends_with_any(gap, &cues.join) {
                    let before = &gap[..gap.len() - j.len()];
                    if !before.ends_with('暗') && ends_with_any(before, &cues.neg).is_none() {
                        out.push((Rel::MemberOf, a.entity, b.entity));
                        continue;
                    }
                }
            }
            (Person, Person) if short => {
                if let Some(c) = ends_with_any(gap, &cues.serve) {
                    if ends_with_any(&gap[..gap.len() - c.len()], &cues.neg).is_none() {
                        out.push((Rel::Serves, a.entity, b.entity));
                        continue;
                    }
                }
                if starts_with_any(gap, &cues.obey).is_some() {
                    out.push((Rel::Serves, b.entity, a.entity));
                    continue;
                }
                // X长子Y, X之妻Y: the gap is a kin word, perhaps after 之.
                if cues.kin.contains(&gap.strip_prefix('之').unwrap_or(gap)) {
                    out.push((Rel::Ally, a.entity, b.entity));
                    continue;
                }
            }
            _ => {}
        }
        if fighter(a.kind) && fighter(b.kind) {
            if cues.with.contains(&gap) {
                // X与Y交锋: a duel; X、Y / X同Y: side by side.
                let next: String = after.chars().take(4).collect();
                let duel = (0..next.len())
                    .filter(|&i| next.is_char_boundary(i))
                    .any(|i| starts_with_any(&next[i..], &cues.duel).is_some());
                if duel && !matches!(gap, "、" | "同") {
                    out.push((Rel::Fights, a.entity, b.entity));
                } else if a.kind == b.kind && a.kind != Faction {
                    out.push((Rel::Ally, a.entity, b.entity));
                }
                continue;
            }
            if cue_in(&cues.fight) && ends_with_any(last_clause, &cues.with).is_none() {
                out.push((Rel::Fights, a.entity, b.entity));
                continue;
            }
        }
        if matches!(a.kind, Army | Person) && b.kind == Place {
            if let Some(c) = ends_with_any(last_clause, &cues.at) {
                let before = &last_clause[..last_clause.len() - c.len()];
                if ends_with_any(before, &cues.neg).is_none() && gap.chars().count() <= 6 {
                    out.push((Rel::At, a.entity, b.entity));
                }
            }
        }
    }
    out
}

/// Y国大将X, Y将X, Y营中X: the gap is a title, perhaps after 国/朝/之/的
/// (not 黄巾力士将X拿住, where 将 takes an object).
/// Whether a faction mention names the reigning dynasty: written as X朝
/// (宋朝), or followed, perhaps after 之, by a `reign` word (柯烈天下,
/// 大宋之江山).
fn reigning(text: &str, s: &Span, cues: &Cues) -> bool {
    let after = text[s.end..].strip_prefix('之').unwrap_or(&text[s.end..]);
    text[..s.end].ends_with('朝') || cues.reign.iter().any(|w| after.starts_with(w))
}

fn is_title(gap: &str, cues: &Cues) -> bool {
    let t = gap.trim_start_matches(['国', '朝', '之', '的']);
    cues.title.contains(&t)
}

/// Does `clause` hold a cue of `list` that no negation right before cancels
/// and that is not part of an idiom (战战兢兢, 追问)?
fn cue_in(clause: &str, list: &[&'static str], cues: &Cues) -> bool {
    let idioms: Vec<(usize, usize)> = cues
        .idiom
        .iter()
        .flat_map(|w| clause.match_indices(w).map(|(i, m)| (i, i + m.len())))
        .collect();
    clause
        .char_indices()
        .filter_map(|(i, _)| starts_with_any(&clause[i..], list).map(|_| i))
        .filter(|&i| !idioms.iter().any(|&(s, e)| s <= i && i < e))
        .any(|i| ends_with_any(&clause[..i], &cues.neg).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Catalog;

    use super::super::test_entity as e;

    fn catalog() -> Catalog {
        use EntityType::*;
        Catalog::new(vec![
            e("韩铁衣", Person),
            e("苏青禾", Person),
            e("石敢当", Person),
            e("云州", Place),
            e("落雁关", Place),
            e("北燕", Faction),
            e("南梁", Faction),
            e("明", Faction),
            e("北燕兵", Army),
            e("南梁军", Army),
            e("飞熊军", Army),
        ])
    }

    fn run(text: &str) -> Vec<(String, &'static str, String)> {
        let catalog = catalog();
        let nested = catalog.nested_factions();
        let spans = super::super::spans(text, &catalog, &nested, &Cues::builtin());
        read_sentence(text, &spans, &Cues::builtin())
            .into_iter()
            .map(|(r, a, b)| {
                (
                    catalog.get(a).name.clone(),
                    r.as_str(),
                    catalog.get(b).name.clone(),
                )
            })
            .collect()
    }

    /// (name, sentence, [(source, relation, target)])
    type Case = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str, &'static str)],
    );

    #[test]
    fn a_faction_named_with_a_reign_word_is_the_reigning_dynasty() {
        let catalog = catalog();
        let cues = Cues::builtin();
        let text = "南梁天下已定，北燕之社稷危矣，北燕人马不多。";
        let spans = super::super::spans(text, &catalog, &catalog.nested_factions(), &cues);
        let got: Vec<(String, bool)> = spans
            .iter()
            .filter(|s| s.kind == EntityType::Faction)
            .map(|s| (catalog.get(s.entity).name.clone(), reigning(text, s, &cues)))
            .collect();
        assert_eq!(
            got,
            vec![
                ("南梁".to_string(), true),
                ("北燕".to_string(), true),
                ("北燕".to_string(), false)
            ]
        );
    }

    #[test]
    fn relation_cues() {
        // (name, sentence, expected (source, relation, target))
        let cases: &[Case] = &[
            (
                "X率Y军",
                "韩铁衣率飞熊军出城。",
                &[("韩铁衣", "commands", "飞熊军")],
            ),
            (
                "X领着Y",
                "苏青禾领着飞熊军来了。",
                &[("苏青禾", "commands", "飞熊军")],
            ),
            (
                "X麾下",
                "石敢当麾下飞熊军最勇。",
                &[("石敢当", "commands", "飞熊军")],
            ),
            (
                "Y军主将X",
                "飞熊军主将石敢当。",
                &[("石敢当", "commands", "飞熊军")],
            ),
            (
                "Y国大将X",
                "北燕大将韩铁衣到了。",
                &[("韩铁衣", "member_of", "北燕")],
            ),
            (
                "Y将X",
                "南梁将苏青禾出马。",
                &[("苏青禾", "member_of", "南梁")],
            ),
            (
                "X乃Y国",
                "石敢当乃南梁国人。",
                &[("石敢当", "member_of", "南梁")],
            ),
            (
                "投Y",
                "韩铁衣投南梁去了。",
                &[("韩铁衣", "member_of", "南梁")],
            ),
            (
                "army named after its faction",
                "北燕兵退了。",
                &[("北燕兵", "army_of", "北燕")],
            ),
            (
                "X攻Y",
                "北燕兵攻南梁军。",
                &[
                    ("北燕兵", "army_of", "北燕"),
                    ("南梁军", "army_of", "南梁"),
                    ("北燕兵", "fights", "南梁军"),
                ],
            ),
            (
                "X大败Y",
                "苏青禾大败石敢当。",
                &[("苏青禾", "fights", "石敢当")],
            ),
            (
                "X围Y",
                "韩铁衣围住苏青禾。",
                &[("韩铁衣", "fights", "苏青禾")],
            ),
            (
                "X战Y",
                "石敢当战韩铁衣。",
                &[("石敢当", "fights", "韩铁衣")],
            ),
            (
                "X统Y",
                "韩铁衣统飞熊军。",
                &[("韩铁衣", "commands", "飞熊军")],
            ),
            (
                "X引Y",
                "石敢当引飞熊军去了。",
                &[("石敢当", "commands", "飞熊军")],
            ),
            (
                "X驻Y",
                "南梁军驻云州。",
                &[("南梁军", "army_of", "南梁"), ("南梁军", "at", "云州")],
            ),
            ("X据Y", "飞熊军据落雁关。", &[("飞熊军", "at", "落雁关")]),
            ("X取Y", "石敢当取云州。", &[("石敢当", "at", "云州")]),
            (
                "X攻Y (a place)",
                "飞熊军攻落雁关。",
                &[("飞熊军", "at", "落雁关")],
            ),
            (
                "X杀败Y",
                "韩铁衣杀败苏青禾。",
                &[("韩铁衣", "fights", "苏青禾")],
            ),
            (
                "X与Y交锋",
                "韩铁衣与苏青禾交锋。",
                &[("韩铁衣", "fights", "苏青禾")],
            ),
            (
                "迎战",
                "石敢当出马迎战韩铁衣。",
                &[("石敢当", "fights", "韩铁衣")],
            ),
            (
                "intention counts: 欲攻",
                "北燕欲攻南梁。",
                &[("北燕", "fights", "南梁")],
            ),
            (
                "X同Y: side by side",
                "韩铁衣同石敢当杀出。",
                &[("韩铁衣", "ally", "石敢当")],
            ),
            ("X屯Y", "飞熊军屯云州。", &[("飞熊军", "at", "云州")]),
            ("X守Y", "石敢当守落雁关。", &[("石敢当", "at", "落雁关")]),
            (
                "令X",
                "韩铁衣令石敢当出战。",
                &[("韩铁衣", "serves", "石敢当")],
            ),
            (
                "奉X之命",
                "苏青禾奉韩铁衣之命。",
                &[("韩铁衣", "serves", "苏青禾")],
            ),
            (
                "X长子Y: one family",
                "韩铁衣长子石敢当来了。",
                &[("韩铁衣", "ally", "石敢当")],
            ),
            (
                "X之妻Y: one family",
                "韩铁衣之妻苏青禾来了。",
                &[("韩铁衣", "ally", "苏青禾")],
            ),
        ];
        for (name, text, expected) in cases {
            let want: Vec<(String, &str, String)> = expected
                .iter()
                .map(|(a, r, b)| (a.to_string(), *r, b.to_string()))
                .collect();
            assert_eq!(run(text), want, "{name}: {text}");
        }
    }

    #[test]
    fn negatives() {
        let cases = [
            ("不曾攻", "北燕兵不曾攻南梁军。"),
            ("未战", "韩铁衣未战苏青禾。"),
            ("不守", "石敢当不守落雁关。"),
            ("弃暗投明 is an idiom", "韩铁衣弃暗投明。"),
            ("a comma clause without a cue", "韩铁衣，苏青禾。"),
            ("将 taking an object is no title", "北燕力士将韩铁衣拿住。"),
            ("战 of 战战兢兢 is no battle", "韩铁衣战战兢兢看苏青禾。"),
            ("追问 is no pursuit", "韩铁衣追问苏青禾。"),
            ("a kin word inside a longer gap", "韩铁衣的长子见了苏青禾。"),
        ];
        for (name, text) in cases {
            let got: Vec<_> = run(text).into_iter().filter(|r| r.1 != "army_of").collect();
            assert!(got.is_empty(), "{name}: {text}: {got:?}");
        }
    }
}
