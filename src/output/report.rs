//! `report.html`: one self-contained page (styles and script inline, no
//! external URL) showing a book's figures, its main entities per type, an
//! entity × chapter dispersion view and an interactive co-occurrence
//! network. What it shows is chosen by `views::report`; this module only
//! writes. The network's starting positions are computed here so the page
//! reads without its script; the script (hand-written, below) runs a small
//! force layout, dragging, hover and the chapter-range filter.

use super::{atomic_write, type_colour};
use crate::error::Result;
use crate::views::Report;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file name of the report.
pub const REPORT: &str = "report.html";

/// What the page says about the run that is not in the tables.
#[derive(Debug, Clone, Default)]
pub struct ReportInfo {
    /// The command line, for the footer.
    pub command: String,
}

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 640.0;

/// CJK fonts first, so names render with whatever CJK font the system has.
const FONTS: &str = "\"Noto Sans CJK SC\", \"Source Han Sans SC\", \"WenQuanYi Micro Hei\", \
\"WenQuanYi Zen Hei\", \"PingFang SC\", \"Hiragino Sans GB\", \"Microsoft YaHei\", \"SimHei\", sans-serif";

const STYLE: &str = r#"
body { font-family: FONTS; margin: 0 auto; max-width: 1000px; padding: 0 16px 40px; color: #222; background: #fcfcfa; }
h1 { font-size: 28px; margin: 24px 0 4px; }
h2 { font-size: 20px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.figures { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 8px 0; }
.figures div { min-width: 90px; }
.figures b { display: block; font-size: 22px; }
.figures span { color: #666; font-size: 13px; }
svg { background: #fff; border: 1px solid #e4e4e4; max-width: 100%; height: auto; }
svg text { font-family: FONTS; }
.net text { font-size: 12px; pointer-events: none; fill: #222; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.net circle { stroke: #fff; stroke-width: 1.5px; cursor: grab; }
.net line { stroke: #999; stroke-opacity: .45; }
.net .dim { opacity: .08; }
.disp text { font-size: 12px; fill: #222; }
.disp .axis { fill: #888; font-size: 10px; }
.controls { margin: 6px 0; font-size: 14px; }
.controls input { width: 260px; vertical-align: middle; }
.legend span { display: inline-block; margin-right: 14px; font-size: 13px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 4px; }
#tip { position: fixed; pointer-events: none; background: #222; color: #fff; padding: 3px 7px; border-radius: 3px; font-size: 13px; display: none; }
.types { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 8px 24px; }
table { border-collapse: collapse; font-size: 13px; width: 100%; }
th, td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:target { background: #fff3b0; }
td.aliases { color: #555; }
td.name { white-space: nowrap; }
footer { margin-top: 32px; color: #888; font-size: 12px; }
"#;

/// The page's script: a small force layout (repulsion between all nodes,
/// springs along edges, a pull to the centre), dragging, hover and the
/// chapter-range filter. Written for zhnovel (MIT, like the rest of it);
/// no vendored code.
const SCRIPT: &str = r#"
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("zhnovel-data").textContent);
  var svg = document.querySelector('[data-view="network"]');
  if (!svg) return;
  var W = data.width, H = data.height;
  var circles = svg.querySelectorAll("circle[data-node]");
  var labels = svg.querySelectorAll("text[data-label]");
  var lines = svg.querySelectorAll("line[data-edge]");
  var nodes = [], edges = [];
  circles.forEach(function (c, i) {
    nodes.push({ x: +c.getAttribute("cx"), y: +c.getAttribute("cy"), vx: 0, vy: 0, fixed: false,
      el: c, label: labels[i], name: c.getAttribute("data-name"), type: c.getAttribute("data-type"),
      chapters: data.nodes[i], shown: 0 });
  });
  lines.forEach(function (l, i) {
    var e = data.edges[i];
    edges.push({ s: nodes[e[0]], t: nodes[e[1]], chapters: e[2], el: l, shown: 0 });
  });
  function inRange(list, from, to) {
    var n = 0;
    for (var i = 0; i < list.length; i++) if (list[i][0] >= from && list[i][0] <= to) n += list[i][1];
    return n;
  }
  function tick(alpha) {
    var i, j, a, b, dx, dy, d2, d, f;
    for (i = 0; i < nodes.length; i++) {
      a = nodes[i];
      if (!a.shown) continue;
      for (j = i + 1; j < nodes.length; j++) {
        b = nodes[j];
        if (!b.shown) continue;
        dx = b.x - a.x; dy = b.y - a.y; d2 = dx * dx + dy * dy + 0.01;
        f = alpha * 14000 / d2;
        d = Math.sqrt(d2);
        a.vx -= f * dx / d; a.vy -= f * dy / d; b.vx += f * dx / d; b.vy += f * dy / d;
      }
    }
    edges.forEach(function (e) {
      if (!e.shown || !e.s.shown || !e.t.shown) return;
      dx = e.t.x - e.s.x; dy = e.t.y - e.s.y; d = Math.sqrt(dx * dx + dy * dy) + 0.01;
      f = alpha * 0.02 * Math.log(1 + e.shown) * (d - 140) / d;
      e.s.vx += f * dx; e.s.vy += f * dy; e.t.vx -= f * dx; e.t.vy -= f * dy;
    });
    nodes.forEach(function (n) {
      n.vx += alpha * 0.006 * (W / 2 - n.x); n.vy += alpha * 0.01 * (H / 2 - n.y);
      if (n.fixed) { n.vx = 0; n.vy = 0; return; }
      n.vx *= 0.6; n.vy *= 0.6;
      n.x = Math.max(20, Math.min(W - 20, n.x + n.vx));
      n.y = Math.max(20, Math.min(H - 20, n.y + n.vy));
    });
  }
  function draw() {
    nodes.forEach(function (n) {
      n.el.setAttribute("cx", n.x.toFixed(1)); n.el.setAttribute("cy", n.y.toFixed(1));
      n.label.setAttribute("x", n.x.toFixed(1)); n.label.setAttribute("y", (n.y - n.r - 3).toFixed(1));
    });
    edges.forEach(function (e) {
      e.el.setAttribute("x1", e.s.x.toFixed(1)); e.el.setAttribute("y1", e.s.y.toFixed(1));
      e.el.setAttribute("x2", e.t.x.toFixed(1)); e.el.setAttribute("y2", e.t.y.toFixed(1));
    });
  }
  var from = document.getElementById("from"), to = document.getElementById("to");
  var rangeText = document.getElementById("range");
  function filter() {
    var a = Math.min(+from.value, +to.value), b = Math.max(+from.value, +to.value);
    rangeText.textContent = a === b ? String(a) : a + "–" + b;
    var maxN = 1, maxE = 1;
    nodes.forEach(function (n) { n.shown = inRange(n.chapters, a, b); maxN = Math.max(maxN, n.shown); });
    edges.forEach(function (e) { e.shown = inRange(e.chapters, a, b); maxE = Math.max(maxE, e.shown); });
    nodes.forEach(function (n) {
      n.r = 4 + 18 * Math.sqrt(n.shown / maxN);
      n.el.setAttribute("r", n.r.toFixed(1));
      n.el.classList.toggle("dim", !n.shown); n.label.classList.toggle("dim", !n.shown);
    });
    edges.forEach(function (e) {
      e.el.setAttribute("stroke-width", (0.5 + 4 * e.shown / maxE).toFixed(2));
      e.el.classList.toggle("dim", !e.shown);
    });
  }
  var running = 0;
  function settle(steps) {
    if (running) { running = Math.max(running, steps); return; }
    running = steps;
    (function frame() {
      for (var k = 0; k < 3 && running > 0; k++, running--) tick(0.5);
      draw();
      if (running > 0) requestAnimationFrame(frame);
    })();
  }
  filter();
  for (var k = 0; k < 400; k++) tick(1 - k / 440);
  draw();
  from.addEventListener("input", function () { filter(); settle(90); });
  to.addEventListener("input", function () { filter(); settle(90); });
  var tip = document.getElementById("tip");
  nodes.forEach(function (n) {
    n.el.addEventListener("pointerenter", function (ev) {
      tip.textContent = n.name + " · " + n.type + " · " + n.shown;
      tip.style.display = "block";
    });
    n.el.addEventListener("pointermove", function (ev) {
      tip.style.left = ev.clientX + 12 + "px"; tip.style.top = ev.clientY + 12 + "px";
    });
    n.el.addEventListener("pointerleave", function () { tip.style.display = "none"; });
    n.el.addEventListener("pointerdown", function (ev) {
      n.fixed = true; n.moved = false; n.el.setPointerCapture(ev.pointerId); ev.preventDefault();
    });
    n.el.addEventListener("click", function () {
      if (!n.moved) location.hash = "e-" + n.el.getAttribute("data-node");
    });
    n.el.addEventListener("pointermove", function (ev) {
      if (!n.fixed) return;
      var p = svg.createSVGPoint(); p.x = ev.clientX; p.y = ev.clientY;
      p = p.matrixTransform(svg.getScreenCTM().inverse());
      n.x = p.x; n.y = p.y; n.moved = true; settle(30);
    });
    n.el.addEventListener("pointerup", function () { n.fixed = false; settle(60); });
  });
})();
"#;

/// Writes `report.html` into `dir`.
pub fn write_report(dir: &Path, report: &Report, info: &ReportInfo) -> Result<PathBuf> {
    let path = dir.join(REPORT);
    let page = page(report, info);
    atomic_write(&path, |w| w.write_all(page.as_bytes()))?;
    Ok(path)
}

fn page(r: &Report, info: &ReportInfo) -> String {
    let mut h = String::with_capacity(1 << 16);
    let title = esc(&r.title);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"zhnovel {}\">\n<title>{title} · zhnovel</title>\n<style>{}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        STYLE.replace("FONTS", FONTS)
    );
    let _ = writeln!(h, "<h1>{title}</h1>");
    figures(&mut h, r);
    network(&mut h, r);
    dispersion(&mut h, r);
    dialogue(&mut h, r);
    entities(&mut h, r);
    let _ = writeln!(
        h,
        "<footer>Written by zhnovel {} ({}). Counts are mentions; pairs count the windows both names share.</footer>",
        env!("CARGO_PKG_VERSION"),
        esc(&info.command)
    );
    let _ = writeln!(h, "<div id=\"tip\"></div>");
    let _ = writeln!(
        h,
        "<script type=\"application/json\" id=\"zhnovel-data\">{}</script>",
        data_json(r).replace("</", "<\\/")
    );
    let _ = writeln!(h, "<script>{SCRIPT}</script>\n</body>\n</html>");
    h
}

fn figures(h: &mut String, r: &Report) {
    let f = &r.figures;
    h.push_str("<section class=\"figures\" data-view=\"figures\">\n");
    let mut item = |n: usize, what: &str| {
        let _ = writeln!(h, "<div><b>{n}</b><span>{what}</span></div>");
    };
    item(f.chapters, "chapters 章回");
    item(f.characters, "characters 字");
    item(f.words, "words 词");
    item(f.mentions, "mentions 提及");
    for &(kind, n) in &f.entities {
        item(n, &format!("{kind} {}", type_zh(kind)));
    }
    h.push_str("</section>\n");
}

fn type_zh(kind: &str) -> &'static str {
    match kind {
        "person" => "人物",
        "place" => "地点",
        "army" => "军队",
        "faction" => "势力",
        _ => "",
    }
}

fn colour(kind: &str) -> String {
    let (r, g, b) = type_colour(kind);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Colours of the sides persons are on (issue: colour persons by side).
const SIDE_COLOURS: [&str; 6] = [
    "#8e44ad", "#16a085", "#c0392b", "#2c3e50", "#d35400", "#7f8c8d",
];

/// The sides of the network's persons, the most common first, with a
/// colour each (the rest keep the person colour).
fn side_colours(net: &crate::views::Network) -> Vec<(String, &'static str)> {
    let mut count: std::collections::BTreeMap<&str, usize> = Default::default();
    for n in net
        .nodes
        .iter()
        .filter(|n| n.kind == "person" && !n.side.is_empty())
    {
        *count.entry(n.side.as_str()).or_default() += 1;
    }
    let mut v: Vec<(&str, usize)> = count.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v.into_iter()
        .zip(SIDE_COLOURS)
        .map(|((s, _), c)| (s.to_string(), c))
        .collect()
}

fn node_colour(n: &crate::views::Node, sides: &[(String, &'static str)]) -> String {
    if n.kind == "person" {
        if let Some((_, c)) = sides.iter().find(|(s, _)| *s == n.side) {
            return c.to_string();
        }
    }
    colour(n.kind)
}

fn legend(h: &mut String, sides: &[(String, &'static str)]) {
    h.push_str("<div class=\"legend\">");
    for kind in ["person", "place", "army", "faction"] {
        let _ = write!(
            h,
            "<span><i style=\"background:{}\"></i>{kind} {}</span>",
            colour(kind),
            type_zh(kind)
        );
    }
    for (side, c) in sides {
        let _ = write!(
            h,
            "<span data-side=\"{0}\"><i style=\"background:{c}\"></i>person on the side of {0}</span>",
            esc(side)
        );
    }
    h.push_str("</div>\n");
}

/// Who speaks to whom: the dialogue network's strongest pairs as a table.
fn dialogue(h: &mut String, r: &Report) {
    if r.dialogue.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h2>Who speaks to whom 对话</h2>\n<table data-view=\"dialogue\" data-pairs=\"{}\"><thead><tr><th>speaker</th><th>addressee</th><th>quotations</th></tr></thead><tbody>",
        r.dialogue.len()
    );
    for (s, a, n) in &r.dialogue {
        let _ = writeln!(
            h,
            "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"n\">{n}</td></tr>",
            esc(s),
            esc(a)
        );
    }
    h.push_str("</tbody></table>\n");
}

fn network(h: &mut String, r: &Report) {
    let net = &r.network;
    let last = r.chapters.len().max(1);
    let _ = writeln!(
        h,
        "<h2>Who meets whom 人物关系网</h2>\n<p>The {} most mentioned entities and their strongest pairs. Drag a node; hover for its mentions, click for its row; the sliders keep the chapters between them.</p>",
        net.nodes.len()
    );
    legend(h, &side_colours(net));
    let _ = writeln!(
        h,
        "<div class=\"controls\">Chapters <input type=\"range\" id=\"from\" min=\"1\" max=\"{last}\" value=\"1\"> \
         <input type=\"range\" id=\"to\" min=\"1\" max=\"{last}\" value=\"{last}\"> <span id=\"range\">1–{last}</span></div>"
    );
    let _ = writeln!(
        h,
        "<svg class=\"net\" data-view=\"network\" data-nodes=\"{}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\">",
        net.nodes.len()
    );
    // Starting positions: a sunflower spiral, the most mentioned in the middle.
    let pos: Vec<(f64, f64)> = (0..net.nodes.len())
        .map(|i| {
            let angle = i as f64 * 2.399_963;
            let radius = 26.0 * (i as f64 + 0.5).sqrt();
            (
                WIDTH / 2.0 + radius * angle.cos() * 1.4,
                HEIGHT / 2.0 + radius * angle.sin(),
            )
        })
        .collect();
    let max_count = net.nodes.iter().map(|n| n.count).max().unwrap_or(1).max(1) as f64;
    let max_weight = net.edges.iter().map(|e| e.weight).max().unwrap_or(1).max(1) as f64;
    h.push_str("<g class=\"edges\">\n");
    for (i, e) in net.edges.iter().enumerate() {
        let (a, b) = (pos[e.source], pos[e.target]);
        let _ = writeln!(
            h,
            "<line data-edge=\"e{}\" data-source=\"{}\" data-target=\"{}\" data-weight=\"{}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke-width=\"{:.2}\"></line>",
            i + 1,
            net.nodes[e.source].id,
            net.nodes[e.target].id,
            e.weight,
            a.0,
            a.1,
            b.0,
            b.1,
            0.5 + 4.0 * e.weight as f64 / max_weight
        );
    }
    let sides = side_colours(net);
    h.push_str("</g>\n<g class=\"nodes\">\n");
    for (n, &(x, y)) in net.nodes.iter().zip(&pos) {
        let radius = 4.0 + 18.0 * (n.count as f64 / max_count).sqrt();
        let name = esc(&n.label);
        let _ = writeln!(
            h,
            "<circle data-node=\"{id}\" data-name=\"{name}\" data-type=\"{kind}\" data-count=\"{count}\" data-side=\"{side}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{radius:.1}\" fill=\"{fill}\"><title>{name} · {kind} · {count}{side_note}</title></circle>",
            id = n.id,
            kind = n.kind,
            count = n.count,
            side = esc(&n.side),
            side_note = if n.side.is_empty() { String::new() } else { format!(" · {}", esc(&n.side)) },
            fill = node_colour(n, &sides),
        );
    }
    for (n, &(x, y)) in net.nodes.iter().zip(&pos) {
        let radius = 4.0 + 18.0 * (n.count as f64 / max_count).sqrt();
        let _ = writeln!(
            h,
            "<text data-label=\"{}\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            n.id,
            y - radius - 3.0,
            esc(&n.label)
        );
    }
    h.push_str("</g>\n</svg>\n");
}

fn dispersion(h: &mut String, r: &Report) {
    let nodes = &r.network.nodes[..r.dispersion];
    let chapters = r.chapters.len();
    let _ = writeln!(
        h,
        "<h2>Who appears when 出场分布</h2>\n<p>Each row an entity, each column a chapter; the darker the cell, the more mentions there (relative to the entity's busiest chapter).</p>"
    );
    let label_w = 110.0;
    let row_h = 18.0;
    let top = 22.0;
    let cell = ((WIDTH - label_w - 10.0) / chapters.max(1) as f64).clamp(2.0, 24.0);
    let width = label_w + cell * chapters as f64 + 10.0;
    let height = top + row_h * nodes.len() as f64 + 6.0;
    let _ = writeln!(
        h,
        "<svg class=\"disp\" data-view=\"dispersion\" data-chapters=\"{chapters}\" data-entities=\"{}\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\">",
        nodes.len()
    );
    let step = match chapters {
        0..=20 => 1,
        21..=60 => 5,
        61..=150 => 10,
        _ => 50,
    };
    for c in (1..=chapters).filter(|c| *c == 1 || c % step == 0) {
        let _ = writeln!(
            h,
            "<text class=\"axis\" x=\"{:.1}\" y=\"14\" text-anchor=\"middle\">{c}</text>",
            label_w + cell * (c as f64 - 0.5)
        );
    }
    let titles: std::collections::HashMap<usize, &str> = r
        .chapters
        .iter()
        .map(|c| (c.index, c.title.as_str()))
        .collect();
    for (row, n) in nodes.iter().enumerate() {
        let y = top + row_h * row as f64;
        let name = esc(&n.label);
        let _ = writeln!(
            h,
            "<g data-entity=\"{name}\" data-type=\"{}\"><a href=\"#e-{}\"><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{name}</text></a>",
            n.kind,
            n.id,
            label_w - 6.0,
            y + 13.0
        );
        let busiest = n.chapters.iter().map(|c| c.1).max().unwrap_or(1).max(1) as f64;
        let fill = colour(n.kind);
        for &(chapter, count) in &n.chapters {
            let _ = writeln!(
                h,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"{:.2}\"><title>{name} · {chapter} {} · {count}</title></rect>",
                label_w + cell * (chapter as f64 - 1.0),
                y + 2.0,
                (cell - 0.5).max(1.0),
                row_h - 4.0,
                0.15 + 0.85 * count as f64 / busiest,
                esc(titles.get(&chapter).copied().unwrap_or("")),
            );
        }
        h.push_str("</g>\n");
    }
    h.push_str("</svg>\n");
}

fn entities(h: &mut String, r: &Report) {
    h.push_str("<h2>Main entities 主要实体</h2>\n<div class=\"types\">\n");
    for (kind, rows) in &r.top {
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(
            h,
            "<section data-type=\"{kind}\"><h3 style=\"color:{}\">{kind} {}</h3>\n<table><thead><tr><th>#</th><th>name</th><th>count</th><th>chapters</th><th>aliases, variants</th></tr></thead><tbody>",
            colour(kind),
            type_zh(kind)
        );
        for (rank, e) in rows {
            let mut also: Vec<&str> = Vec::new();
            for list in [&e.aliases, &e.variants] {
                also.extend(list.iter().map(String::as_str));
            }
            let _ = writeln!(
                h,
                "<tr id=\"e-n{rank}\" data-entity=\"{}\"><td class=\"n\">{rank}</td><td class=\"name\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"aliases\">{}</td></tr>",
                esc(&e.entity),
                esc(&e.entity),
                e.count,
                e.chapters,
                esc(&also.join("、"))
            );
        }
        h.push_str("</tbody></table></section>\n");
    }
    h.push_str("</div>\n");
}

/// What the script needs beyond the DOM: per node and edge, its chapters
/// and counts there, for the chapter-range filter.
fn data_json(r: &Report) -> String {
    let net = &r.network;
    let nodes: Vec<&Vec<(usize, u64)>> = net.nodes.iter().map(|n| &n.chapters).collect();
    let edges: Vec<serde_json::Value> = net
        .edges
        .iter()
        .map(|e| serde_json::json!([e.source, e.target, e.chapters]))
        .collect();
    serde_json::json!({
        "width": WIDTH,
        "height": HEIGHT,
        "chapters": r.chapters.len(),
        "nodes": nodes,
        "edges": edges,
    })
    .to_string()
}

/// Escapes text for HTML element content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_has_no_url_and_escapes_names() {
        assert_eq!(esc("<宋\"江>&"), "&lt;宋&quot;江&gt;&amp;");
        for text in [STYLE, SCRIPT, FONTS] {
            assert!(!text.contains("http:") && !text.contains("https:"));
        }
    }
}
