//! The views of issue 12 end to end on corpus/: timeline and per-chapter
//! pairs (their sums against entities.csv and cooccurrence.csv), GraphML and
//! GEXF read back with a real XML parser, typed JSON Lines, the summary
//! line, report.html (and in a headless browser when chromium is installed).
//! Expectations come from the tool's own tables, never from an answer key.

use crate::util::*;
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One analysis of corpus/ with both network files, shared by the tests.
fn corpus_run() -> &'static (Dir, PathBuf, String) {
    static RUN: OnceLock<(Dir, PathBuf, String)> = OnceLock::new();
    RUN.get_or_init(|| {
        let d = Dir::new();
        let out = d.path("out");
        let run = zhnovel(&["analyze", "corpus/", "-o", p(&out), "--graphml", "--gexf"]).success();
        let stderr = run.stderr();
        (d, out, stderr)
    })
}

/// Runs `analyze -q` on `input` into a fresh folder `out`.
fn analyzed(input: &str, extra: &[&str]) -> (Dir, PathBuf) {
    let d = Dir::new();
    let out = d.path("out");
    let mut args = vec!["analyze", input, "-o", p(&out), "-q"];
    args.extend(extra);
    zhnovel(&args).success();
    (d, out)
}

fn out() -> &'static Path {
    &corpus_run().1
}

fn count(r: &csv::StringRecord, i: usize) -> u64 {
    r[i].parse()
        .unwrap_or_else(|_| panic!("column {i} of {r:?}"))
}

#[test]
fn views_timeline_sums_to_entity_counts_in_known_chapters() {
    let text = std::fs::read_to_string(out().join("timeline.csv")).unwrap();
    assert!(text.starts_with("\u{FEFF}entity,type,chapter,title,count\r\n"));
    let chapters: HashMap<String, String> = records(&out().join("chapters.csv"))
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    let mut sums: BTreeMap<(String, String), (u64, u64, u64)> = BTreeMap::new();
    for r in records(&out().join("timeline.csv")) {
        assert_eq!(chapters.get(&r[2]), Some(&r[3].to_string()), "{r:?}");
        assert!(count(&r, 4) > 0);
        let s = sums
            .entry((r[0].to_string(), r[1].to_string()))
            .or_default();
        s.0 += count(&r, 4);
        s.1 += 1;
        if s.1 == 1 {
            s.2 = count(&r, 2);
        }
    }
    let entities = records(&out().join("entities.csv"));
    assert_eq!(sums.len(), entities.len());
    for e in &entities {
        let s = sums[&(e[0].to_string(), e[1].to_string())];
        assert_eq!(s.0, count(e, 2), "mentions of {}", &e[0]);
        assert_eq!(s.1, count(e, 3), "chapters of {}", &e[0]);
        assert_eq!(s.2, count(e, 4), "first chapter of {}", &e[0]);
    }
}

#[test]
fn views_chapter_pairs_sum_to_pair_counts() {
    let text = std::fs::read_to_string(out().join("cooccurrence-chapters.csv")).unwrap();
    assert!(text.starts_with("\u{FEFF}source,target,chapter,count\r\n"));
    let mut sums: BTreeMap<(String, String), u64> = BTreeMap::new();
    for r in records(&out().join("cooccurrence-chapters.csv")) {
        *sums
            .entry((r[0].to_string(), r[1].to_string()))
            .or_default() += count(&r, 3);
    }
    let mut pairs: BTreeMap<(String, String), u64> = BTreeMap::new();
    for r in records(&out().join("cooccurrence.csv")) {
        *pairs
            .entry((r[0].to_string(), r[1].to_string()))
            .or_default() += count(&r, 4);
    }
    assert!(pairs.len() > 100);
    assert_eq!(sums, pairs);
}

/// An element of an XML file: name, attributes, and the text it holds.
#[derive(Debug, Default, Clone)]
struct Element {
    name: String,
    attrs: HashMap<String, String>,
    text: String,
    /// The names of its open ancestors, outermost first.
    path: Vec<String>,
}

/// Every element of an XML file, in document order, parsed with quick-xml.
fn elements(path: &Path) -> Vec<Element> {
    let mut reader = Reader::from_file(path).unwrap();
    let mut buf = Vec::new();
    let mut out: Vec<Element> = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buf).unwrap();
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = e.name().as_ref().to_string();
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        (
                            a.key.as_ref().to_string(),
                            a.normalized_value(XmlVersion::Explicit1_0)
                                .unwrap()
                                .to_string(),
                        )
                    })
                    .collect();
                out.push(Element {
                    name: name.clone(),
                    attrs,
                    text: String::new(),
                    path: open.iter().map(|o| o.0.clone()).collect(),
                });
                if matches!(event, Event::Start(_)) {
                    open.push((name, out.len() - 1));
                }
            }
            Event::Text(t) => {
                if let Some(&(_, i)) = open.last() {
                    out[i].text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let name = r.into_inner().to_string();
                let c = quick_xml::escape::resolve_predefined_entity(&name).unwrap();
                if let Some(&(_, i)) = open.last() {
                    out[i].text.push_str(c);
                }
            }
            Event::End(_) => {
                open.pop();
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    assert!(open.is_empty(), "unclosed elements in {}", path.display());
    out
}

/// An XML NMTOKEN of ASCII characters (what our ids are).
fn is_nmtoken(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'))
}

/// Nodes (id → label, type, count) and edges (source, target, weight, pmi)
/// of a GraphML file, checking its keys and ids on the way.
type GraphNodes = BTreeMap<String, (String, String, u64)>;
type GraphEdges = Vec<(String, String, u64, f64)>;

fn read_graphml(path: &Path) -> (GraphNodes, GraphEdges) {
    let els = elements(path);
    assert_eq!(els[0].name, "graphml");
    let keys: BTreeSet<(String, String)> = els
        .iter()
        .filter(|e| e.name == "key")
        .map(|e| (e.attrs["for"].clone(), e.attrs["attr.name"].clone()))
        .collect();
    for (of, name) in [
        ("node", "label"),
        ("node", "type"),
        ("node", "count"),
        ("edge", "weight"),
        ("edge", "pmi"),
    ] {
        assert!(keys.contains(&(of.into(), name.into())), "key {of} {name}");
    }
    let mut nodes = GraphNodes::new();
    let mut edges = GraphEdges::new();
    let mut data: HashMap<String, String> = HashMap::new();
    let mut current: Option<Element> = None;
    let mut finish = |el: Option<Element>, data: &mut HashMap<String, String>| {
        let Some(el) = el else { return };
        if el.name == "node" {
            let id = el.attrs["id"].clone();
            assert!(is_nmtoken(&id), "node id {id:?}");
            let prev = nodes.insert(
                id.clone(),
                (
                    data["label"].clone(),
                    data["type"].clone(),
                    data["count"].parse().unwrap(),
                ),
            );
            assert!(prev.is_none(), "duplicate id {id}");
        } else {
            edges.push((
                el.attrs["source"].clone(),
                el.attrs["target"].clone(),
                data["weight"].parse().unwrap(),
                data["pmi"].parse().unwrap(),
            ));
        }
        data.clear();
    };
    for el in els {
        match el.name.as_str() {
            "node" | "edge" => finish(current.replace(el), &mut data),
            "data" => {
                data.insert(el.attrs["key"].clone(), el.text.clone());
            }
            _ => {}
        }
    }
    finish(current, &mut data);
    for (s, t, _, _) in &edges {
        assert!(nodes.contains_key(s) && nodes.contains_key(t), "{s} {t}");
    }
    (nodes, edges)
}

#[test]
fn views_graphml_is_valid_and_readable_by_default() {
    let (nodes, edges) = read_graphml(&out().join("cooccurrence.graphml"));
    let entities = records(&out().join("entities.csv"));
    assert!(entities.len() > 20);
    assert!((20..=300).contains(&nodes.len()), "{} nodes", nodes.len());
    assert!(nodes.len() < entities.len(), "the default is a selection");
    // The 20 most mentioned are always in, with their type and count.
    let labels: BTreeMap<(String, String), u64> = nodes
        .values()
        .map(|(l, t, c)| ((l.clone(), t.clone()), *c))
        .collect();
    for e in &entities[..20] {
        assert_eq!(
            labels.get(&(e[0].to_string(), e[1].to_string())),
            Some(&count(e, 2)),
            "{e:?}"
        );
    }
    // Edges are pairs of cooccurrence.csv with weight = count.
    let pairs: HashMap<(String, String), (u64, f64)> = records(&out().join("cooccurrence.csv"))
        .iter()
        .map(|r| {
            (
                (r[0].to_string(), r[1].to_string()),
                (count(r, 4), r[5].parse().unwrap()),
            )
        })
        .collect();
    assert!(!edges.is_empty() && edges.len() < pairs.len());
    for (s, t, weight, pmi) in &edges {
        let key = (nodes[s].0.clone(), nodes[t].0.clone());
        assert_eq!(pairs.get(&key), Some(&(*weight, *pmi)), "{key:?}");
    }
}

#[test]
fn views_graph_all_holds_every_entity_and_pair() {
    let (_d, out) = analyzed("corpus/seeds", &["--graphml", "--graph-all", "--no-report"]);
    let (nodes, edges) = read_graphml(&out.join("cooccurrence.graphml"));
    assert_eq!(nodes.len(), records(&out.join("entities.csv")).len());
    assert_eq!(edges.len(), records(&out.join("cooccurrence.csv")).len());
    assert!(!out.join("report.html").exists(), "--no-report");
    assert!(!out.join("cooccurrence.gexf").exists(), "no --gexf");
}

#[test]
fn views_gexf_is_dynamic_with_chapter_spells() {
    let path = out().join("cooccurrence.gexf");
    let els = elements(&path);
    let gexf = &els[0];
    assert_eq!(gexf.name, "gexf");
    assert_eq!(gexf.attrs["version"], "1.3");
    assert_eq!(gexf.attrs["xmlns"], "http://gexf.net/1.3");
    let graph = els.iter().find(|e| e.name == "graph").unwrap();
    assert_eq!(graph.attrs["mode"], "dynamic");
    // Chapters per entity and per pair, from the tables.
    let mut entity_chapters: HashMap<String, Vec<u64>> = HashMap::new();
    for r in records(&out().join("timeline.csv")) {
        entity_chapters
            .entry(r[0].to_string())
            .or_default()
            .push(count(&r, 2));
    }
    let mut pair_chapters: HashMap<(String, String), Vec<u64>> = HashMap::new();
    for r in records(&out().join("cooccurrence-chapters.csv")) {
        pair_chapters
            .entry((r[0].to_string(), r[1].to_string()))
            .or_default()
            .push(count(&r, 2));
    }
    // Walk nodes and edges with their spells, colours and attributes.
    let mut labels: HashMap<String, String> = HashMap::new();
    // Each node or edge, its spells, and how many attvalues and colours.
    type Item = (Element, Vec<(u64, u64)>, usize);
    let mut items: Vec<Item> = Vec::new();
    for el in els {
        match el.name.as_str() {
            "node" | "edge" if el.path.last().is_some_and(|p| p == "nodes" || p == "edges") => {
                if el.name == "node" {
                    assert!(is_nmtoken(&el.attrs["id"]));
                    labels.insert(el.attrs["id"].clone(), el.attrs["label"].clone());
                }
                items.push((el, Vec::new(), 0));
            }
            "spell" => {
                let s = |k: &str| el.attrs[k].parse::<u64>().unwrap();
                items.last_mut().unwrap().1.push((s("start"), s("end")));
            }
            "viz:color" | "attvalue" => items.last_mut().unwrap().2 += 1,
            _ => {}
        }
    }
    let (mut n_nodes, mut n_edges) = (0, 0);
    for (el, spells, extras) in &items {
        let covered: Vec<u64> = spells.iter().flat_map(|&(a, b)| a..=b).collect();
        let mentioned = if el.name == "node" {
            n_nodes += 1;
            // type, count, a colour, and a side where relations.csv gives one.
            assert!(
                (3..=4).contains(extras),
                "type, count, colour, side: {el:?}"
            );
            entity_chapters[&el.attrs["label"]].clone()
        } else {
            n_edges += 1;
            assert_eq!(*extras, 2, "count and pmi: {el:?}");
            let key = (
                labels[&el.attrs["source"]].clone(),
                labels[&el.attrs["target"]].clone(),
            );
            pair_chapters[&key].clone()
        };
        // Spells start at the first chapter and cover every chapter where
        // it is mentioned (runs of consecutive chapters cover no others).
        assert_eq!(covered, mentioned, "{el:?}");
    }
    assert!((20..=300).contains(&n_nodes));
    assert!(n_edges > 0);
}

#[test]
fn views_jsonl_values_are_typed() {
    let (d, _) = analyzed("corpus/seeds", &["--format", "jsonl", "--no-report"]);
    let lines = |name: &str| -> Vec<serde_json::Value> {
        d.read(&format!("out/{name}.jsonl"))
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let entities = lines("entities");
    assert!(!entities.is_empty());
    for e in &entities {
        assert!(e["count"].is_u64() && e["chapters"].is_u64() && e["first_chapter"].is_u64());
        assert!(e["confidence"].is_f64() || e["confidence"].is_u64(), "{e}");
        for list in ["variants", "aliases", "evidence"] {
            let items = e[list].as_array().unwrap_or_else(|| panic!("{list}: {e}"));
            assert!(items
                .iter()
                .all(|i| i.as_str().is_some_and(|s| !s.is_empty())));
        }
        assert_eq!(e.as_object().unwrap().len(), 10);
    }
    // Keys in column order.
    let first = d.read("out/entities.jsonl");
    assert!(first.starts_with("{\"entity\":"), "{first}");
    let order: Vec<usize> = [
        "entity",
        "type",
        "count",
        "chapters",
        "first_chapter",
        "original",
        "variants",
        "aliases",
        "evidence",
        "confidence",
    ]
    .iter()
    .map(|k| first.find(&format!("\"{k}\":")).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(!entities[0]["evidence"].as_array().unwrap().is_empty());
    for p in lines("cooccurrence") {
        assert!(p["pmi"].is_f64() || p["pmi"].is_i64(), "{p}");
        assert!(p["count"].is_u64());
    }
    for t in lines("timeline") {
        assert!(t["chapter"].is_u64() && t["count"].is_u64() && t["entity"].is_string());
    }
    for t in lines("cooccurrence-chapters") {
        assert!(t["chapter"].is_u64() && t["count"].is_u64());
    }
    for name in ["mentions", "frequency", "chapters"] {
        assert!(!lines(name).is_empty(), "{name}.jsonl");
    }
}

#[test]
fn views_summary_line_on_success_and_quiet_with_q() {
    let stderr = &corpus_run().2;
    let f = crate::util::records(&out().join("chapters.csv"));
    let characters: u64 = f.iter().map(|r| count(r, 4)).sum();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for needle in [
        format!("{} chapters", f.len()),
        format!("{characters} characters"),
        " person".to_string(),
        " place".to_string(),
        " army".to_string(),
        " faction".to_string(),
        " s ".to_string(),
        out().display().to_string(),
    ] {
        assert!(stderr.contains(&needle), "{needle:?} in {stderr}");
    }
    let d = Dir::new();
    let run = zhnovel(&["analyze", "corpus/seeds", "-o", p(&d.path("o")), "-q"]).success();
    assert_eq!(run.stderr(), "");
}

#[test]
fn views_books_get_their_own_views_and_summary_lines() {
    let d = Dir::new();
    let out = d.path("out");
    let run = zhnovel(&["analyze", "--books", "corpus/", "-o", p(&out), "--gexf"]).success();
    let stderr = run.stderr();
    let lines: Vec<&str> = stderr.trim_end().lines().collect();
    let books = records(&out.join("books.csv"));
    assert_eq!(lines.len(), books.len() + 1, "{stderr}");
    for (line, book) in lines.iter().zip(&books) {
        assert!(
            line.contains(&format!("{}: {} chapters", &book[0], &book[1])),
            "{line}"
        );
        for file in [
            "timeline.csv",
            "cooccurrence-chapters.csv",
            "cooccurrence.gexf",
            "report.html",
        ] {
            assert!(
                out.join(&book[0]).join(file).exists(),
                "{}/{file}",
                &book[0]
            );
        }
    }
    assert!(lines[books.len()].contains(&format!("{} books", books.len())));
    // With --format sqlite: a database per book, the shelf tables in CSV.
    let db = d.path("db");
    zhnovel(&[
        "analyze",
        "--books",
        "corpus/",
        "-o",
        p(&db),
        "-q",
        "--format",
        "sqlite",
    ])
    .success();
    assert_eq!(records(&db.join("books.csv")).len(), books.len());
    assert!(db.join("entities.csv").exists());
    for book in &books {
        assert!(db.join(&book[0]).join("zhnovel.sqlite").exists());
        assert!(!db.join(&book[0]).join("entities.csv").exists());
    }
}

/// The top persons of entities.csv.
fn top_persons(out: &Path, n: usize) -> Vec<String> {
    records(&out.join("entities.csv"))
        .iter()
        .filter(|r| &r[1] == "person")
        .take(n)
        .map(|r| r[0].to_string())
        .collect()
}

/// The page outside its `<script>` elements.
fn without_scripts(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<script") {
        out.push_str(&rest[..i]);
        let end = rest[i..]
            .find("</script>")
            .map_or(rest.len(), |j| i + j + 9);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn attr_number(html: &str, attr: &str) -> usize {
    let i = html
        .find(&format!("{attr}=\""))
        .unwrap_or_else(|| panic!("{attr}"));
    html[i + attr.len() + 2..]
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Checks a report page (as written, or as a browser's DOM).
fn check_report(html: &str, out: &Path) {
    let page = without_scripts(html);
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no URL"
    );
    assert!(!html.contains("src=\""), "nothing loaded");
    for link in html.split("href=\"").skip(1) {
        let target: String = link.chars().take(20).collect();
        assert!(link.starts_with('#'), "a link inside the page: {target}");
    }
    let chapters = records(&out.join("chapters.csv")).len();
    assert!(page.contains(&format!(
        "data-view=\"dispersion\" data-chapters=\"{chapters}\""
    )));
    let net = &page[page.find("data-view=\"network\"").expect("network view")..];
    let k = attr_number(net, "data-nodes");
    let net = &net[..net.find("</svg>").unwrap()];
    assert!((20..=60).contains(&k), "{k} nodes");
    assert_eq!(net.matches("<circle").count(), k);
    assert_eq!(net.matches("data-node=").count(), k);
    // Every node links to its row in the tables.
    for part in net.split("data-node=\"").skip(1) {
        let id = part.split('"').next().unwrap();
        assert!(page.contains(&format!("<tr id=\"e-{id}\"")), "row of {id}");
    }
    for name in top_persons(out, 5) {
        assert!(
            net.contains(&format!("data-name=\"{name}\"")),
            "{name} in the network"
        );
        assert!(
            page.contains(&format!(">{name}</td>")),
            "{name} in the tables"
        );
        assert!(page.contains(&format!("data-entity=\"{name}\"")), "{name}");
    }
    assert!(page.contains("WenQuanYi Micro Hei"));
}

#[test]
fn views_report_is_self_contained_and_names_the_cast() {
    let html = std::fs::read_to_string(out().join("report.html")).unwrap();
    assert!(html.len() < 5 << 20);
    check_report(&html, out());
}

#[test]
fn views_report_renders_in_a_headless_browser() {
    let Some(chromium) = ["chromium", "chromium-browser"].into_iter().find(|c| {
        std::process::Command::new(c)
            .arg("--version")
            .output()
            .is_ok()
    }) else {
        eprintln!("views_report_renders_in_a_headless_browser: skipped, chromium is not installed");
        return;
    };
    let profile = tempfile::tempdir().unwrap();
    let page = out().join("report.html");
    let child = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            &format!("--user-data-dir={}", profile.path().display()),
            "--dump-dom",
            &format!("file://{}", page.display()),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A browser that hangs fails the test instead of hanging it.
    let pid = child.id();
    let (done, waited) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    let dom = match waited.recv_timeout(std::time::Duration::from_secs(120)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
            panic!("chromium did not finish in 120 s");
        }
    };
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8(dom.stdout).unwrap();
    check_report(&dom, out());
    // The script ran: the force layout moved the nodes from where the page
    // put them.
    let html = std::fs::read_to_string(&page).unwrap();
    let first_circle = |s: &str| {
        let i = s.find("<circle").unwrap();
        s[i..i + s[i..].find('>').unwrap()].to_string()
    };
    assert_ne!(first_circle(&html), first_circle(&dom));
}

#[test]
fn views_kwic_lists_every_mention_at_its_offset() {
    let (_d, out) = analyzed("corpus/shuihu", &["--no-report"]);
    let entities = records(&out.join("entities.csv"));
    let person = entities.iter().find(|r| &r[1] == "person").unwrap();
    let name = person[0].to_string();
    let mut expected: Vec<(String, String, String)> = records(&out.join("mentions.csv"))
        .iter()
        .filter(|m| m[1] == name && &m[2] == "person")
        .map(|m| (m[0].to_string(), m[4].to_string(), m[3].to_string()))
        .collect();
    expected.sort();
    assert_eq!(expected.len() as u64, count(person, 2));

    let csv_out = zhnovel(&[
        "kwic",
        &name,
        "corpus/shuihu",
        "--format",
        "csv",
        "--width",
        "8",
    ])
    .success()
    .stdout();
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(csv_out.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect();
    assert!(csv_out.starts_with("chapter,offset,left,match,right,"));
    let mut got: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string(), r[3].to_string()))
        .collect();
    got.sort();
    assert_eq!(
        got, expected,
        "(chapter, offset, match) = mentions' (chapter, start, surface)"
    );
    assert!(rows
        .iter()
        .all(|r| r[2].chars().count() <= 8 && r[4].chars().count() <= 8));
    assert!(rows.iter().any(|r| r[2].chars().count() == 8));

    // The plain view: no header, one line per mention, matches aligned.
    let plain = zhnovel(&["kwic", &name, "corpus/shuihu", "--width", "8"])
        .success()
        .stdout();
    let lines: Vec<&str> = plain.lines().collect();
    assert_eq!(lines.len(), expected.len());
    assert!(lines[0]
        .trim_start()
        .starts_with(|c: char| c.is_ascii_digit()));
    use unicode_width::UnicodeWidthStr;
    let columns: BTreeMap<usize, &str> = lines
        .iter()
        .zip(&rows)
        .map(|(l, r)| {
            let before = format!("{}  {}", &r[2], &r[3]);
            let at = l.find(&before).expect("left and match in line") + r[2].len() + 2;
            (l[..at].width(), *l)
        })
        .collect();
    assert_eq!(
        columns.len(),
        1,
        "matches start in one column: {columns:#?}"
    );

    // Asked by an alias or a spelling as written, the same lines.
    let other = [&person[7], &person[6], &person[5]]
        .into_iter()
        .flat_map(|cell| cell.split('|'))
        .find(|s| !s.is_empty() && *s != name);
    if let Some(other) = other {
        let by_other = zhnovel(&["kwic", other, "corpus/shuihu", "--width", "8"])
            .success()
            .stdout();
        assert_eq!(by_other, plain, "kwic {other}");
    }
    zhnovel(&["kwic", "无此人名字", "corpus/shuihu"]).fails(1, "无此人名字");
}

#[test]
fn views_sqlite_holds_the_tables_with_their_rows_and_indexes() {
    let (_c, csv_out) = analyzed("corpus/shuihu", &["--no-report"]);
    let (_s, db_out) = analyzed("corpus/shuihu", &["--format", "sqlite"]);
    assert!(!db_out.join("entities.csv").exists());
    assert!(db_out.join("report.html").exists());
    let db = rusqlite::Connection::open(db_out.join("zhnovel.sqlite")).unwrap();
    for (table, file) in [
        ("entities", "entities"),
        ("mentions", "mentions"),
        ("cooccurrence", "cooccurrence"),
        ("frequency", "frequency"),
        ("chapters", "chapters"),
        ("timeline", "timeline"),
        ("cooccurrence_chapters", "cooccurrence-chapters"),
    ] {
        let path = csv_out.join(format!("{file}.csv"));
        let csv_rows = records(&path);
        let n: i64 = db
            .query_row(&format!("SELECT count(*) FROM \"{table}\""), [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(n as usize, csv_rows.len(), "{table}");
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = text[3..].split("\r\n").next().unwrap().split(',').collect();
        let stmt = db.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        assert_eq!(stmt.column_names().collect::<Vec<_>>(), header, "{table}");
        // Same rows in the same order: the first column of the first rows.
        let mut stmt = db
            .prepare(&format!(
                "SELECT * FROM \"{table}\" ORDER BY rowid LIMIT 20"
            ))
            .unwrap();
        let first: Vec<String> = stmt
            .query_map([], |r| {
                Ok(match r.get_ref(0)? {
                    rusqlite::types::ValueRef::Integer(i) => i.to_string(),
                    v => v.as_str()?.to_string(),
                })
            })
            .unwrap()
            .map(|v| v.unwrap())
            .collect();
        let expected: Vec<String> = csv_rows.iter().take(20).map(|r| r[0].to_string()).collect();
        assert_eq!(first, expected, "{table}");
    }
    let counted: i64 = db
        .query_row(
            "SELECT sum(\"count\") FROM timeline WHERE entity = (SELECT entity FROM entities ORDER BY rowid LIMIT 1)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let top: i64 = db
        .query_row(
            "SELECT \"count\" FROM entities ORDER BY rowid LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(counted, top);
    let indexed: Vec<String> = db
        .prepare("SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'index'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|v| v.unwrap())
        .collect();
    for index in [
        "entities.entities_entity",
        "mentions.mentions_entity",
        "mentions.mentions_chapter",
        "timeline.timeline_entity",
        "timeline.timeline_chapter",
    ] {
        assert!(indexed.iter().any(|i| i == index), "{index} in {indexed:?}");
    }
    zhnovel(&["entities", "corpus/seeds", "--format", "sqlite"]).fails(2, "sqlite");
}

/// Each person's and army's side as relations.csv says: the target of its
/// member_of / army_of row with the highest count (ties: first by name).
fn leading_sides(out: &Path) -> HashMap<String, String> {
    let mut best: HashMap<String, (u64, String)> = HashMap::new();
    for r in records(&out.join("relations.csv")) {
        if &r[1] != "member_of" && &r[1] != "army_of" {
            continue;
        }
        let c = count(&r, 3);
        let e = best.entry(r[0].to_string()).or_insert((0, String::new()));
        if c > e.0 || (c == e.0 && r[2] < *e.1) {
            *e = (c, r[2].to_string());
        }
    }
    best.into_iter().map(|(k, v)| (k, v.1)).collect()
}

#[test]
fn views_gexf_and_report_carry_sides_and_the_dialogue_network() {
    let sides = leading_sides(out());
    assert!(!sides.is_empty(), "corpus/ has member_of rows");
    // GEXF: a `side` node attribute, whose values are the leading sides.
    let els = elements(&out().join("cooccurrence.gexf"));
    assert!(els
        .iter()
        .any(|e| e.name == "attribute" && e.attrs.get("id").map(String::as_str) == Some("side")));
    let mut label = String::new();
    let mut seen = 0;
    for e in &els {
        if e.name == "node" {
            label = e.attrs["label"].clone();
        }
        if e.name == "attvalue" && e.path.iter().any(|p| p == "node") && e.attrs["for"] == "side" {
            assert_eq!(sides.get(&label), Some(&e.attrs["value"]), "{label}");
            seen += 1;
        }
    }
    assert!(seen > 0, "some node has a side");
    // The report: circles carry the same sides; the dialogue table holds the
    // strongest pairs of dialogue.csv.
    let html = std::fs::read_to_string(out().join("report.html")).unwrap();
    for part in html.split("<circle ").skip(1) {
        let attr = |name: &str| {
            part.split(&format!("{name}=\""))
                .nth(1)
                .map(|s| s.split('"').next().unwrap().to_string())
        };
        let (name, side, kind) = (
            attr("data-name").unwrap(),
            attr("data-side").unwrap(),
            attr("data-type").unwrap(),
        );
        if kind == "person" || kind == "army" {
            assert_eq!(
                side,
                sides.get(&name).cloned().unwrap_or_default(),
                "{name}"
            );
        }
    }
    let pairs = records(&out().join("dialogue.csv")).len().min(30);
    assert!(pairs > 0, "corpus/ has dialogue");
    assert!(html.contains(&format!("data-view=\"dialogue\" data-pairs=\"{pairs}\"")));
    let table = html
        .split("data-view=\"dialogue\"")
        .nth(1)
        .unwrap()
        .split("</table>")
        .next()
        .unwrap();
    assert_eq!(table.matches("<tr><td").count(), pairs);
}
