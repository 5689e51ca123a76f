//! Generates a deterministic benchmark site: `N` research notes of 3–6 KB (front matter like
//! the seed's, varied bodies with body links, blocks of unique code, `related` ids some of
//! which are one-way, pinned sources, a fifth of the notes stale: thousands of findings at
//! 10k, as a real site carries), 25 clients and 40 capabilities — for fieldnotes, and
//! optionally the same corpus for Hugo and Zola.
//!
//! The default shape (`--shape real`) is what knowledge bases made elsewhere have (issue 33):
//! 1–3 clients, capabilities, sources and related ids per note, related notes anywhere in the
//! corpus, one block of code per note in JSON, Python, shell or TypeScript. `--shape seed` is
//! the generator's first corpus, draw for draw (one client, capability and revision a note,
//! two sources, neighbours as related notes, six languages): every figure measured before
//! issue 33 is on it. Each knob can be set on its own over either shape:
//!
//! ```text
//! cargo run --release --example gen_corpus -- --notes 10000 /tmp/corpus-10k
//! cargo run --release --example gen_corpus -- --notes 10000 --hugo /tmp/hugo-10k --zola /tmp/zola-10k /tmp/corpus-10k
//! cargo run --release --example gen_corpus -- --shape seed --clients-per-note 1-3 /tmp/c
//! ```
//!
//! Knobs: `--clients N`, `--capabilities N`, `--clients-per-note A-B`,
//! `--capabilities-per-note A-B`, `--revisions-per-note A-B`, `--sources A-B`,
//! `--related A-B|neighbours`, `--languages a,b,…` (of typescript, json, yaml, toml, sh,
//! python), `--body-bytes A-B`, `--second-block-one-in N` (0: never).

mod code;
mod corpus;
mod fieldnotes_site;
mod hugo;
mod zola;

use corpus::{Count, Related, Shape};
use std::path::PathBuf;

/// Where each flavour of the corpus goes, and what it looks like.
struct Args {
    notes: usize,
    shape: Shape,
    fieldnotes: PathBuf,
    hugo: Option<PathBuf>,
    zola: Option<PathBuf>,
}

fn main() {
    let args = parse_args();
    let shape = &args.shape;
    let mut rng = corpus::Rng::new();
    let cells: Vec<Vec<corpus::Cell>> = (0..shape.clients)
        .map(|_| corpus::cells(args.notes, shape, &mut rng))
        .collect();
    let notes: Vec<corpus::Note> = (0..args.notes)
        .map(|n| corpus::note(n, args.notes, shape, &mut rng))
        .collect();
    let result = fieldnotes_site::write(&args.fieldnotes, shape, &notes, &cells)
        .and_then(|()| {
            args.hugo
                .as_ref()
                .map_or(Ok(()), |d| hugo::write(d, shape, &notes))
        })
        .and_then(|()| {
            args.zola
                .as_ref()
                .map_or(Ok(()), |d| zola::write(d, shape, &notes))
        });
    if let Err(e) = result {
        eprintln!("error: writing the corpus: {e}");
        std::process::exit(2);
    }
    eprintln!(
        "wrote {} notes, {} clients, {} capabilities to {}",
        args.notes,
        shape.clients,
        shape.capabilities,
        args.fieldnotes.display()
    );
}

fn parse_args() -> Args {
    let mut notes = 1000;
    let mut fieldnotes = None;
    let (mut hugo, mut zola) = (None, None);
    // Knobs are applied over the shape once all arguments are read, in the order given.
    let mut shape = Shape::real();
    let mut knobs: Vec<(String, String)> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--notes" => notes = value().parse().unwrap_or_else(|_| usage()),
            "--hugo" => hugo = Some(PathBuf::from(value())),
            "--zola" => zola = Some(PathBuf::from(value())),
            "--shape" => {
                shape = match value().as_str() {
                    "seed" => Shape::seed(),
                    "real" => Shape::real(),
                    _ => usage(),
                }
            }
            knob if knob.starts_with("--") => knobs.push((knob.to_string(), value())),
            dir => fieldnotes = Some(PathBuf::from(dir)),
        }
    }
    for (knob, value) in knobs {
        apply(&mut shape, &knob, &value);
    }
    if shape.capabilities > corpus::GROUPS.len() * 100 || shape.clients == 0 {
        usage();
    }
    Args {
        notes,
        shape,
        fieldnotes: fieldnotes.unwrap_or_else(|| usage()),
        hugo,
        zola,
    }
}

/// Sets one knob of `shape` (see the module's docs).
fn apply(shape: &mut Shape, knob: &str, value: &str) {
    match knob {
        "--clients" => shape.clients = number(value).max(1),
        "--capabilities" => shape.capabilities = number(value).max(1),
        "--clients-per-note" => shape.clients_per_note = count(value),
        "--capabilities-per-note" => shape.capabilities_per_note = count(value),
        "--revisions-per-note" => shape.revisions_per_note = count(value),
        "--sources" => shape.sources_per_note = count(value),
        "--related" if value == "neighbours" => shape.related = Related::Neighbours,
        "--related" => shape.related = Related::Anywhere(count(value)),
        "--languages" => {
            shape.languages = value
                .split(',')
                .map(|l| {
                    (code::LANGUAGES.iter().find(|k| **k == l).copied()).unwrap_or_else(|| usage())
                })
                .collect()
        }
        "--body-bytes" => shape.body_bytes = count(value),
        "--second-block-one-in" => shape.second_block_one_in = number(value),
        _ => usage(),
    }
}

fn number(value: &str) -> usize {
    value.parse().unwrap_or_else(|_| usage())
}

/// `A-B` (or `A`): an inclusive range of counts.
fn count(value: &str) -> Count {
    let (low, high) = value.split_once('-').unwrap_or((value, value));
    let (low, high) = (number(low), number(high));
    if high < low {
        usage();
    }
    Count(low, high)
}

fn usage() -> ! {
    eprintln!(
        "usage: gen_corpus [--notes N] [--shape real|seed] [--clients N] [--capabilities N] \
         [--clients-per-note A-B] [--capabilities-per-note A-B] [--revisions-per-note A-B] \
         [--sources A-B] [--related A-B|neighbours] [--languages a,b,…] [--body-bytes A-B] \
         [--second-block-one-in N] [--hugo DIR] [--zola DIR] DIR"
    );
    std::process::exit(2);
}
