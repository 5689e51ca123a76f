//! Measures save → updated page through a running `fieldnotes serve`, the way a browser sees
//! it: starts the release binary on a site (e.g. a 10,000-note corpus from `gen_corpus`),
//! listens on the live-reload stream, then saves one note several times and times, from each
//! save, the reload event and a request for the note's page that returns the new text. With
//! `title` the saves change the note's title, and a request for the research index (which
//! waits while the index is rendered again) is timed too. Saves are `GAP_MS` apart (1000
//! unless given): after a save the server also renders the listings and rebuilds the search
//! index (about 0.3 s at 10k), and a save that comes meanwhile waits for them. The note is
//! restored afterwards.
//!
//! ```sh
//! cargo build --release && cargo build --release --examples
//! target/release/examples/serve_latency /tmp/fn-10k [RUNS] [body|title] [GAP_MS]
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(
        args.next()
            .expect("usage: serve_latency SITE_DIR [RUNS] [title]"),
    );
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(10);
    let titles = args.next().as_deref() == Some("title");
    let gap: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(1000);
    let (mut server, port) = start(&root);
    let mut events = BufReader::new(subscribe(port));

    let note = first_note(&root);
    let id = note
        .file_stem()
        .expect("a name")
        .to_string_lossy()
        .into_owned();
    let original = std::fs::read_to_string(&note).expect("the note");
    let (mut reloads, mut pages, mut indexes) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        std::thread::sleep(Duration::from_millis(gap));
        let marker = format!("Saved in run {run} of the latency check");
        let edit = match titles {
            true => original.replacen("\ntitle: ", &format!("\ntitle: {marker}, "), 1),
            false => format!("{original}\n{marker}.\n"),
        };
        let saved = Instant::now();
        std::fs::write(&note, edit).expect("write");
        wait_for_reload(&mut events);
        reloads.push(saved.elapsed());
        let page = get(port, &format!("/research/{id}"));
        assert!(page.contains(&marker), "the note's page has the new text");
        pages.push(saved.elapsed());
        if titles {
            let index = get(port, "/research");
            assert!(
                index.contains(&marker),
                "the research index has the new title"
            );
            indexes.push(saved.elapsed());
        }
    }
    std::fs::write(&note, &original).expect("restore the note");
    let _ = server.kill();
    let _ = server.wait();
    println!("{runs} saves of {}, {gap} ms apart", note.display());
    println!("save → reload event: {}", spread(&mut reloads));
    println!("save → note page with the new text: {}", spread(&mut pages));
    if titles {
        println!(
            "save → research index with the new title: {}",
            spread(&mut indexes)
        );
    }
}

/// Starts `fieldnotes serve` on a free port; returns it and the port once it serves.
fn start(root: &Path) -> (Child, u16) {
    let exe = std::env::current_exe().expect("this program's path");
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|release| release.join("fieldnotes"))
        .expect("target/release");
    let mut child = Command::new(&bin)
        .arg("--root")
        .arg(root)
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts ({e}); build it first", bin.display()));
    let stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut lines = stderr.lines().map_while(Result::ok);
    let port = lines
        .find_map(|line| {
            let url = line.strip_prefix("serving http://127.0.0.1:")?;
            url.split('/').next()?.parse().ok()
        })
        .expect("the server prints its URL");
    // Keep reading what it prints, so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, port)
}

/// Opens the live-reload stream, as the page's script does.
fn subscribe(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    let host = format!("127.0.0.1:{port}");
    write!(
        stream,
        "GET /__fieldnotes/events HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\r\n"
    )
    .expect("subscribes");
    stream
}

/// Reads the stream until the next reload event.
fn wait_for_reload(events: &mut BufReader<TcpStream>) {
    let mut line = String::new();
    while !line.starts_with("event: reload") {
        line.clear();
        let read = events.read_line(&mut line).expect("reads the stream");
        assert!(read > 0, "the stream closed");
    }
}

/// `GET path` over HTTP/1.0; the body as text.
fn get(port: u16, path: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .expect("asks");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).expect("reads");
    let text = String::from_utf8_lossy(&response).into_owned();
    assert!(
        text.starts_with("HTTP/1.1 200") || text.starts_with("HTTP/1.0 200"),
        "{path}"
    );
    text
}

/// The note the edits go to: the first by file name.
fn first_note(root: &Path) -> PathBuf {
    std::fs::read_dir(root.join("content/research"))
        .expect("content/research")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .min()
        .expect("a note")
}

/// The median, and the range over every run.
fn spread(times: &mut [Duration]) -> String {
    times.sort();
    let (first, middle, last) = (times[0], times[times.len() / 2], times[times.len() - 1]);
    format!("median {middle:.1?} (min {first:.1?}, max {last:.1?})")
}
