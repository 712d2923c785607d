//! `cathedral site`: the board as a static site, the engine and solver in the browser. The page's
//! files as the server serves them, with `<html data-engine="browser">` so that its requests go
//! to the WebAssembly service in Web Workers (`assets/local.js`), the `.wasm` (which carries the
//! puzzles with their ratings, the opening book and the evaluation network, as the binary does),
//! a web app manifest with its icons, and a service worker that keeps every file for offline
//! use. Every address is relative, so the site works from any folder of any static host.

use super::assets::ASSETS;
use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;
use std::io::Write;
use std::path::Path;

/// The file that marks a folder as a site this command wrote (and may write again).
pub const MARKER: &str = ".cathedral-site";

/// One file of the site, with its size raw and compressed as a server would send it.
pub struct SiteFile {
    pub name: String,
    pub bytes: usize,
    pub gzip: usize,
}

/// The site's files, each ready to write.
fn files(wasm: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, text) in ASSETS {
        match *name {
            "index.html" => files.push(("index.html".into(), index(text)?.into_bytes())),
            "favicon.svg" => files.push(((*name).into(), text.as_bytes().to_vec())),
            // The play server's lobby needs the server: a static host has none. (The board's
            // online.js stays: it does nothing without `?online=`.)
            "play.html" | "play.js" => {}
            _ => files.push((format!("assets/{name}"), text.as_bytes().to_vec())),
        }
    }
    let icon = ASSETS
        .iter()
        .find(|(name, _)| *name == "favicon.svg")
        .map(|(_, text)| *text)
        .ok_or("the page's icon is missing from the build")?;
    for size in [192, 512] {
        files.push((format!("icon-{size}.png"), png(icon, size)?));
    }
    files.push(("cathedral.wasm".into(), wasm.to_vec()));
    files.push((
        "manifest.webmanifest".into(),
        MANIFEST
            .trim_start()
            .replace("@VERSION@", cathedral::VERSION)
            .into_bytes(),
    ));
    // The service worker keeps every other file; its version changes with any of them, so
    // that a new site is picked up on the next visit.
    let mut hasher = DefaultHasher::new();
    for (name, bytes) in &files {
        hasher.write(name.as_bytes());
        hasher.write(bytes);
    }
    let list: Vec<String> = std::iter::once("./".to_string())
        .chain(files.iter().map(|(name, _)| name.clone()))
        .map(|name| format!("  {name:?},"))
        .collect();
    let worker = SERVICE_WORKER
        .trim_start()
        .replace("@VERSION@", &format!("{:016x}", hasher.finish()))
        .replace("  @FILES@", &list.join("\n"));
    files.push(("sw.js".into(), worker.into_bytes()));
    Ok(files)
}

/// The page for the static site: the engine in the browser, the manifest linked.
fn index(text: &str) -> Result<String, String> {
    let html = super::assets::with_version(text);
    let html = html.replacen(
        "<html lang=\"en\">",
        "<html lang=\"en\" data-engine=\"browser\">",
        1,
    );
    let html = html.replacen(
        "<link rel=\"icon\"",
        "<link rel=\"manifest\" href=\"manifest.webmanifest\">\n<meta name=\"theme-color\" content=\"#6b3e26\">\n<link rel=\"apple-touch-icon\" href=\"icon-192.png\">\n<link rel=\"icon\"",
        1,
    );
    if !html.contains("data-engine=\"browser\"") || !html.contains("manifest.webmanifest") {
        return Err("index.html has changed shape: the site cannot mark it for the browser's engine (src/web/site.rs)".into());
    }
    Ok(html)
}

/// `svg` drawn as a square PNG of `size` pixels.
fn png(svg: &str, size: u32) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| format!("the icon is not valid SVG: {e}"))?;
    let mut pixmap = tiny_skia::Pixmap::new(size, size).ok_or("the icon would be empty")?;
    let scale = size as f32 / tree.size().width();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("the icon could not be encoded: {e}"))
}

fn gzip_size(bytes: &[u8]) -> usize {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().map_or(bytes.len(), |out| out.len())
}

/// Whether the site may be written into `dir`: a new or empty folder, a site this command wrote
/// before, or with `force` any folder; otherwise why not.
pub fn check_output(dir: &Path, force: bool) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "{} is a file, not a folder: choose a folder for the site",
            dir.display()
        ));
    }
    if dir.exists() {
        let mut entries =
            std::fs::read_dir(dir).map_err(|e| format!("{} cannot be read: {e}", dir.display()))?;
        if entries.next().is_some() && !dir.join(MARKER).exists() && !force {
            return Err(format!(
                "{} is not empty and holds no site written by `cathedral site`: choose an empty or new folder, or pass --force to write the site's files into it (other files are left alone)",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// Writes the site into `dir` (created if missing; refused where [`check_output`] refuses).
/// Returns its files with their sizes.
pub fn write_site(dir: &Path, wasm: &[u8], force: bool) -> Result<Vec<SiteFile>, String> {
    check_output(dir, force)?;
    let files = files(wasm)?;
    std::fs::create_dir_all(dir.join("assets"))
        .map_err(|e| format!("{} cannot be created: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (name, bytes) in &files {
        let path = dir.join(name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("{} cannot be written: {e}", path.display()))?;
        written.push(SiteFile {
            name: name.clone(),
            bytes: bytes.len(),
            gzip: gzip_size(bytes),
        });
    }
    std::fs::write(
        dir.join(MARKER),
        "Written by `cathedral site`; `cathedral site` may write this folder again.\n",
    )
    .map_err(|e| format!("{} cannot be written: {e}", dir.display()))?;
    Ok(written)
}

const MANIFEST: &str = r##"
{
  "name": "Cathedral analysis board",
  "short_name": "Cathedral",
  "version": "@VERSION@",
  "description": "Play, analyse and solve the board game Cathedral, and train with puzzles: the engine and the exact solver run in the browser, offline.",
  "start_url": "./",
  "scope": "./",
  "display": "standalone",
  "background_color": "#ffffff",
  "theme_color": "#6b3e26",
  "icons": [
    { "src": "icon-192.png", "sizes": "192x192", "type": "image/png" },
    { "src": "icon-512.png", "sizes": "512x512", "type": "image/png" },
    { "src": "favicon.svg", "sizes": "any", "type": "image/svg+xml" }
  ]
}
"##;

/// The service worker: every file of the site kept at install, answered from the cache first
/// (the page, whatever its address's query, for any navigation), the network otherwise, each
/// with the cross-origin isolation headers (COOP, COEP), which most static hosts cannot send. A new
/// site (a new version) installs beside the old one, takes over at once and drops the old files;
/// a page already open keeps what it loaded, and the next visit gets the new site.
const SERVICE_WORKER: &str = r##"
// The Cathedral board's service worker, written by `cathedral site`: the whole site offline.
const VERSION = "cathedral-@VERSION@";
const FILES = [
  @FILES@
];

self.addEventListener("install", event => {
  event.waitUntil(caches.open(VERSION).then(cache => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", event => {
  event.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(key => key.startsWith("cathedral-") && key !== VERSION).map(key => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// The page may ask which version runs.
self.addEventListener("message", event => {
  if (event.data === "version" && event.source) event.source.postMessage({ version: VERSION });
});

// The site's files go out with the cross-origin isolation headers, which a plain static host
// cannot send: a page loaded through this worker (a reload, every visit after the first) is
// cross-origin isolated, so its Stop reaches a running search through shared memory and a
// stopped solve keeps its best move so far and its root moves (local.js).
function isolated(response) {
  if (!response || response.type === "opaque" || response.type === "error") return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener("fetch", event => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const page = request.mode === "navigate" ? await cache.match("index.html") : null;
    const kept = page || await cache.match(request, { ignoreSearch: true });
    return isolated(kept || await fetch(request));
  })());
});
"##;
