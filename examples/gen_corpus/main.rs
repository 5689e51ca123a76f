//! Generates a deterministic benchmark site: `N` research notes of 3–6 KB (front matter like
//! the seed's, varied bodies with body links, one or two blocks of unique code in TypeScript,
//! JSON, YAML, TOML, shell or Python, `related` ids some of which are one-way, pinned sources,
//! a fifth of the notes stale: thousands of findings at 10k, as a real site carries), 25
//! clients and 40 capabilities — for fieldnotes, and optionally the same corpus for Hugo and
//! Zola.
//!
//! ```text
//! cargo run --release --example gen_corpus -- --notes 10000 /tmp/corpus-10k
//! cargo run --release --example gen_corpus -- --notes 10000 --hugo /tmp/hugo-10k --zola /tmp/zola-10k /tmp/corpus-10k
//! ```

mod code;
mod corpus;
mod fieldnotes_site;
mod hugo;
mod zola;

use std::path::PathBuf;

/// Where each flavour of the corpus goes.
struct Args {
    notes: usize,
    fieldnotes: PathBuf,
    hugo: Option<PathBuf>,
    zola: Option<PathBuf>,
}

fn main() {
    let args = parse_args();
    let mut rng = corpus::Rng::new();
    let cells: Vec<Vec<corpus::Cell>> = (0..corpus::CLIENTS)
        .map(|_| corpus::cells(args.notes, &mut rng))
        .collect();
    let notes: Vec<corpus::Note> = (0..args.notes)
        .map(|n| corpus::note(n, args.notes, &mut rng))
        .collect();
    let result = fieldnotes_site::write(&args.fieldnotes, &notes, &cells)
        .and_then(|()| {
            args.hugo
                .as_ref()
                .map_or(Ok(()), |d| hugo::write(d, &notes))
        })
        .and_then(|()| {
            args.zola
                .as_ref()
                .map_or(Ok(()), |d| zola::write(d, &notes))
        });
    if let Err(e) = result {
        eprintln!("error: writing the corpus: {e}");
        std::process::exit(2);
    }
    eprintln!(
        "wrote {} notes, {} clients, {} capabilities to {}",
        args.notes,
        corpus::CLIENTS,
        corpus::CAPABILITIES,
        args.fieldnotes.display()
    );
}

fn parse_args() -> Args {
    let mut notes = 1000;
    let mut fieldnotes = None;
    let (mut hugo, mut zola) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--notes" => {
                notes = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "--hugo" => hugo = Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage())),
            "--zola" => zola = Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage())),
            dir if !dir.starts_with('-') => fieldnotes = Some(PathBuf::from(dir)),
            _ => usage(),
        }
    }
    Args {
        notes,
        fieldnotes: fieldnotes.unwrap_or_else(|| usage()),
        hugo,
        zola,
    }
}

fn usage() -> ! {
    eprintln!("usage: gen_corpus [--notes N] [--hugo DIR] [--zola DIR] DIR");
    std::process::exit(2);
}
