//! The co-occurrence network as GraphML and GEXF 1.3 (Gephi, Cytoscape,
//! networkx, igraph), written with quick-xml's writer. Which nodes and edges
//! a file holds is decided by `views::network`; this module only writes.

use super::atomic_write;
use crate::error::Result;
use crate::views::{runs, Network};
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Colour of an entity type, as RGB (GEXF's viz:color, the report).
pub fn type_colour(kind: &str) -> (u8, u8, u8) {
    match kind {
        "person" => (214, 39, 40),
        "place" => (44, 160, 44),
        "army" => (31, 119, 180),
        "faction" => (255, 127, 14),
        _ => (127, 127, 127),
    }
}

/// Writes `cooccurrence.graphml`: nodes `n1`, `n2`, … (rank in
/// entities.csv) with `label`, `type` and `count`; undirected edges with
/// `weight` (the pair's count) and `pmi`.
pub fn write_graphml(dir: &Path, net: &Network) -> Result<PathBuf> {
    write_xml(dir.join("cooccurrence.graphml"), |x| {
        x.create_element("graphml")
            .with_attribute(("xmlns", "http://graphml.graphdrawing.org/xmlns"))
            .write_inner_content(|x| {
                let keys = [
                    ("label", "node", "string"),
                    ("type", "node", "string"),
                    ("count", "node", "long"),
                    ("weight", "edge", "double"),
                    ("pmi", "edge", "double"),
                ];
                for (id, of, ty) in keys {
                    x.create_element("key")
                        .with_attributes([
                            ("id", id),
                            ("for", of),
                            ("attr.name", id),
                            ("attr.type", ty),
                        ])
                        .write_empty()?;
                }
                x.create_element("graph")
                    .with_attributes([("id", "cooccurrence"), ("edgedefault", "undirected")])
                    .write_inner_content(|x| {
                        for n in &net.nodes {
                            x.create_element("node")
                                .with_attribute(("id", n.id.as_str()))
                                .write_inner_content(|x| {
                                    data(x, "label", &n.label)?;
                                    data(x, "type", n.kind)?;
                                    data(x, "count", &n.count.to_string())
                                })?;
                        }
                        for (i, e) in net.edges.iter().enumerate() {
                            let (id, source, target) = edge_ends(net, i);
                            x.create_element("edge")
                                .with_attributes([
                                    ("id", id.as_str()),
                                    ("source", source),
                                    ("target", target),
                                ])
                                .write_inner_content(|x| {
                                    data(x, "weight", &e.weight.to_string())?;
                                    data(x, "pmi", &format!("{:.3}", e.pmi))
                                })?;
                        }
                        Ok(())
                    })?;
                Ok(())
            })?;
        Ok(())
    })
}

/// Writes an XML file (declaration, indented elements, final line break)
/// through a temp file.
fn write_xml(
    path: PathBuf,
    body: impl FnOnce(&mut Writer<&mut std::io::BufWriter<std::fs::File>>) -> std::io::Result<()>,
) -> Result<PathBuf> {
    atomic_write(&path, |w| {
        let mut x = Writer::new_with_indent(w, b' ', 2);
        x.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        body(&mut x)?;
        x.get_mut().write_all(b"\n")
    })?;
    Ok(path)
}

fn data<W: Write>(x: &mut Writer<W>, key: &str, value: &str) -> std::io::Result<()> {
    x.create_element("data")
        .with_attribute(("key", key))
        .write_text_content(BytesText::new(value))?;
    Ok(())
}

/// Writes `cooccurrence.gexf` (GEXF 1.3, mode="dynamic", integer time =
/// chapter index): nodes and edges with the attributes of the GraphML, one
/// spell per run of consecutive chapters where the entity is mentioned (the
/// pair meets), and a colour per type.
pub fn write_gexf(dir: &Path, net: &Network) -> Result<PathBuf> {
    write_xml(dir.join("cooccurrence.gexf"), |x| {
        x.create_element("gexf")
            .with_attributes([
                ("xmlns", "http://gexf.net/1.3"),
                ("xmlns:viz", "http://gexf.net/1.3/viz"),
                ("version", "1.3"),
            ])
            .write_inner_content(|x| {
                x.create_element("meta").write_inner_content(|x| {
                    x.create_element("creator")
                        .write_text_content(BytesText::new("zhnovel"))?;
                    x.create_element("description")
                        .write_text_content(BytesText::new(
                            "Co-occurrence network; time is the chapter index",
                        ))?;
                    Ok(())
                })?;
                x.create_element("graph")
                    .with_attributes([
                        ("mode", "dynamic"),
                        ("defaultedgetype", "undirected"),
                        ("timeformat", "integer"),
                        ("timerepresentation", "interval"),
                    ])
                    .write_inner_content(|x| write_gexf_graph(x, net))?;
                Ok(())
            })?;
        Ok(())
    })
}

fn write_gexf_graph<W: Write>(x: &mut Writer<W>, net: &Network) -> std::io::Result<()> {
    let attributes = [
        (
            "node",
            &[("type", "string"), ("count", "long"), ("side", "string")][..],
        ),
        ("edge", &[("count", "long"), ("pmi", "double")][..]),
    ];
    for (class, list) in attributes {
        x.create_element("attributes")
            .with_attributes([("class", class), ("mode", "static")])
            .write_inner_content(|x| {
                for &(id, ty) in list {
                    x.create_element("attribute")
                        .with_attributes([("id", id), ("title", id), ("type", ty)])
                        .write_empty()?;
                }
                Ok(())
            })?;
    }
    x.create_element("nodes").write_inner_content(|x| {
        for n in &net.nodes {
            let (r, g, b) = type_colour(n.kind);
            x.create_element("node")
                .with_attributes([("id", n.id.as_str()), ("label", n.label.as_str())])
                .write_inner_content(|x| {
                    let count = n.count.to_string();
                    let mut values = vec![("type", n.kind), ("count", count.as_str())];
                    if !n.side.is_empty() {
                        values.push(("side", n.side.as_str()));
                    }
                    attvalues(x, &values)?;
                    spells(x, n.chapters.iter().map(|c| c.0))?;
                    x.create_element("viz:color")
                        .with_attributes([
                            ("r", r.to_string().as_str()),
                            ("g", g.to_string().as_str()),
                            ("b", b.to_string().as_str()),
                        ])
                        .write_empty()?;
                    let size = format!("{:.1}", 4.0 + (n.count as f64).sqrt());
                    x.create_element("viz:size")
                        .with_attribute(("value", size.as_str()))
                        .write_empty()?;
                    Ok(())
                })?;
        }
        Ok(())
    })?;
    x.create_element("edges").write_inner_content(|x| {
        for (i, e) in net.edges.iter().enumerate() {
            let (id, source, target) = edge_ends(net, i);
            let weight = e.weight.to_string();
            x.create_element("edge")
                .with_attributes([
                    ("id", id.as_str()),
                    ("source", source),
                    ("target", target),
                    ("weight", weight.as_str()),
                ])
                .write_inner_content(|x| {
                    attvalues(
                        x,
                        &[
                            ("count", &e.weight.to_string()),
                            ("pmi", &format!("{:.3}", e.pmi)),
                        ],
                    )?;
                    spells(x, e.chapters.iter().map(|c| c.0))
                })?;
        }
        Ok(())
    })?;
    Ok(())
}

/// The id of edge `i` (e1, e2, …) and the ids of its two nodes.
fn edge_ends(net: &Network, i: usize) -> (String, &str, &str) {
    let e = &net.edges[i];
    let node = |n: usize| net.nodes[n].id.as_str();
    (format!("e{}", i + 1), node(e.source), node(e.target))
}

fn attvalues<W: Write>(x: &mut Writer<W>, values: &[(&str, &str)]) -> std::io::Result<()> {
    x.create_element("attvalues").write_inner_content(|x| {
        for &(key, value) in values {
            x.create_element("attvalue")
                .with_attributes([("for", key), ("value", value)])
                .write_empty()?;
        }
        Ok(())
    })?;
    Ok(())
}

fn spells<W: Write>(
    x: &mut Writer<W>,
    chapters: impl IntoIterator<Item = usize>,
) -> std::io::Result<()> {
    let runs = runs(chapters);
    if runs.is_empty() {
        return Ok(());
    }
    x.create_element("spells").write_inner_content(|x| {
        for (start, end) in runs {
            x.create_element("spell")
                .with_attributes([
                    ("start", start.to_string().as_str()),
                    ("end", end.to_string().as_str()),
                ])
                .write_empty()?;
        }
        Ok(())
    })?;
    Ok(())
}
