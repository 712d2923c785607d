//! The tree keeps its shape (`docs/architecture.md`): the shared layers name no game and use only
//! the layers before them, each game uses only the shared layers, the front ends sit on top, no
//! two folders import each other, directly or round a loop, and inside a folder no two modules
//! do either, but for the pairs named in [`ONE_IDEA`] with the reason.
//!
//! The check reads every `.rs` file under `src/` and collects the paths its code names
//! (`crate::x`, `crate::{x, y}`, `super::` chains that leave the folder, and in the binary's
//! front ends `cathedral::x` for the library); comments and doc comments are not code. A name the
//! crate root re-exports from a game (`crate::Position`, `crate::file`) counts as that game.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's shared layers, in order: each may use only those before it.
const SHARED: [&str; 7] = [
    "boardgame",
    "files",
    "present",
    "frontend",
    "analysis",
    "arena",
    "play",
];
/// The games: each uses the shared layers and nothing else (not the other game).
const GAMES: [&str; 2] = ["cathedral", "corintho"];
/// The binary's front ends, in order: each may use the library and the ones before it.
const BINARY: [&str; 4] = ["protocol", "web", "cli", "main"];

/// Modules that import each other because they are one idea split for size, with the reason
/// (`docs/architecture.md`): a module and its own submodule only.
const ONE_IDEA: [(&str, &str, &str); 1] = [(
    "cathedral/position",
    "cathedral/position/capture_map",
    "the capture map is the part of move generation that works out captures before a move: it \
     reads the position it belongs to, and the position's move generation asks it",
)];

/// What module `name` (a top-level folder or file of `src/`) may use.
fn allowed(name: &str) -> BTreeSet<&'static str> {
    let mut set = BTreeSet::new();
    if let Some(i) = SHARED.iter().position(|s| *s == name) {
        set.extend(&SHARED[..i]);
    } else if GAMES.contains(&name) {
        set.extend(SHARED);
    } else if name == "python" || name == "wasm" {
        // The Python module and the browser build are front ends inside the library.
        set.extend(SHARED);
        set.extend(GAMES);
        set.insert("lib");
    } else if name == "lib" {
        // The crate root only declares modules and re-exports.
        set.extend(SHARED);
        set.extend(GAMES);
        set.insert("python");
        set.insert("wasm");
    } else if let Some(i) = BINARY.iter().position(|s| *s == name) {
        set.extend(SHARED);
        set.extend(GAMES);
        set.insert("lib");
        set.extend(&BINARY[..i]);
    } else {
        panic!("src/{name}: a top-level module this check does not know: give it a layer");
    }
    set
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code without comments: `//` to the end of the line (outside strings), and
/// `/* */` blocks. String literals are kept whole so that `"//"` inside one survives.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == '"' {
                in_string = false;
            }
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A char literal such as '"': kept, never opening a string.
            out.extend(&chars[i..i + 3]);
            i += 3;
        } else {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The identifiers that follow `prefix` in `code`: `crate::x` gives `x`, and `crate::{x, y::z}`
/// gives `x` and `y`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + prefix.len()..];
        rest = after;
        // `foo_crate::x` or `mycathedral::x` is not the path we look for.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 1;
            let mut end = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            // Top-level items of the group only.
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group[..end].chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ if depth == 0 => item.push(c),
                    _ => {}
                }
            }
            items.push(item);
            for item in items {
                let head: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !head.is_empty() && head != "self" {
                    names.push(head);
                }
            }
        } else {
            let head: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !head.is_empty() {
                names.push(head);
            }
        }
    }
    names
}

/// The names the crate root re-exports from a game (`Position`, `file`, `draw`), with the game.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for statement in code_of(lib).split(';') {
        let statement = statement.trim();
        let Some(path) = statement.strip_prefix("pub use ") else {
            continue;
        };
        let Some(game) = GAMES.iter().find(|g| path.starts_with(&format!("{g}::"))) else {
            continue;
        };
        let last = match (path.find('{'), path.rfind('}')) {
            (Some(open), Some(close)) => path[open + 1..close].to_string(),
            _ => path.rsplit("::").next().unwrap_or("").to_string(),
        };
        for item in last.split(',') {
            let name = item.rsplit(" as ").next().unwrap_or("").trim();
            if !name.is_empty() {
                map.insert(name.to_string(), game.to_string());
            }
        }
    }
    map
}

struct Tree {
    /// (from, to) -> the files that make the import.
    edges: BTreeMap<(String, String), BTreeSet<String>>,
}

fn tree() -> Tree {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let reexports = root_reexports(&lib);
    let lib_modules: BTreeSet<&str> = SHARED
        .iter()
        .chain(&GAMES)
        .copied()
        .chain(["python", "wasm", "internals"])
        .collect();
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let top = parts[0].clone();
        let in_binary = BINARY.contains(&top.as_str());
        let code = code_of(&std::fs::read_to_string(file).expect("a source file"));
        let shown = relative.display().to_string();
        let mut add = |to: String| {
            if to != top {
                edges
                    .entry((top.clone(), to))
                    .or_default()
                    .insert(shown.clone());
            }
        };
        // The module path of this file: `a/b.rs` is a::b, `a/mod.rs` is a.
        let mut module: Vec<String> = parts.clone();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module == ["lib"] || module == ["main"] {
            module.clear();
        }
        // A library path's first name: a module of the library, or a name the root re-exports.
        let in_library = |name: String| {
            if lib_modules.contains(name.as_str()) {
                name
            } else if let Some(game) = reexports.get(&name) {
                game.clone()
            } else {
                "lib".to_string()
            }
        };
        for name in names_after(&code, "crate::") {
            // In the binary, `crate::` names the binary's own front ends.
            add(if in_binary { name } else { in_library(name) });
        }
        if in_binary {
            for name in names_after(&code, "cathedral::") {
                add(in_library(name));
            }
        }
        // `super::super::x` climbing out of the top-level module.
        let mut rest = code.as_str();
        while let Some(at) = rest.find("super::") {
            let mut depth = 0;
            let mut tail = &rest[at..];
            while let Some(next) = tail.strip_prefix("super::") {
                depth += 1;
                tail = next;
            }
            rest = tail;
            // `super::*` in a test module inside a `mod.rs` stays in the folder: only a named
            // path is an import.
            if depth >= module.len() {
                let head: String = tail
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !head.is_empty() {
                    add(head);
                }
            }
        }
    }
    Tree { edges }
}

#[test]
fn each_folder_uses_only_the_layers_below_it() {
    let tree = tree();
    let mut wrong = Vec::new();
    for ((from, to), files) in &tree.edges {
        if !allowed(from).contains(to.as_str()) {
            wrong.push(format!("{from} -> {to}: {files:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_folders_import_each_other() {
    let tree = tree();
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to) in tree.edges.keys() {
        graph.entry(from).or_default().insert(to);
    }
    // Depth-first search for a back edge.
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node);
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node);
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        let cycle = visit(node, &graph, &mut Vec::new(), &mut done);
        assert!(cycle.is_none(), "a cycle between folders: {cycle:?}");
    }
}

/// The check itself sees what it must: a path hidden in a comment or a string is not an import,
/// a group and a `super::` chain are.
#[test]
fn the_reader_finds_paths_in_code_only() {
    let code = code_of(
        "use crate::{boardgame::Game, files};\n// crate::cathedral in a comment\n/* crate::corintho */ let s = \"//\"; let t = crate::present::words::count;",
    );
    assert_eq!(
        names_after(&code, "crate::"),
        ["boardgame", "files", "present"]
    );
    assert_eq!(names_after("mycrate::x", "crate::"), Vec::<String>::new());
    let map = root_reexports(
        "pub use cathedral::position::{Position, Side};\npub use cathedral::{draw, file};\npub use corintho::X as Y;",
    );
    assert_eq!(map.get("Position").map(String::as_str), Some("cathedral"));
    assert_eq!(map.get("file").map(String::as_str), Some("cathedral"));
    assert_eq!(map.get("Y").map(String::as_str), Some("corintho"));
    assert!(allowed("analysis").contains("frontend"));
    assert!(!allowed("frontend").contains("analysis"));
    assert!(!allowed("arena").contains("cathedral"));
    assert!(!allowed("cathedral").contains("corintho"));
}

// ---------------------------------------------------------------------------------------------
// Modules inside folders.

/// A module: the crate (`lib` or `bin`) and its path (`["cathedral", "file", "yaml"]`).
type Module = (&'static str, Vec<String>);

/// The module of each file of `src/`.
fn modules() -> BTreeMap<Module, PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let mut parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        let crate_name = if parts.first().is_some_and(|p| BINARY.contains(&p.as_str())) {
            "bin"
        } else {
            "lib"
        };
        if parts == ["lib"] || parts == ["main"] {
            parts.clear();
        }
        out.insert((crate_name, parts), file);
    }
    out
}

/// The paths of a `use` tree: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d` and `a::c::e`.
fn use_paths(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    let (head, group) = match tree.find('{') {
        Some(open) if tree.ends_with('}') => (&tree[..open], Some(&tree[open + 1..tree.len() - 1])),
        _ => (tree, None),
    };
    let mut path = prefix.to_vec();
    let head = head.split(" as ").next().unwrap_or("");
    path.extend(
        head.split("::")
            .map(str::trim)
            .filter(|p| !p.is_empty() && *p != "*")
            .map(str::to_string),
    );
    let Some(group) = group else {
        out.push(path);
        return;
    };
    let (mut depth, mut item) = (0, String::new());
    for c in group.chars().chain([',']) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            if !item.trim().is_empty() && item.trim() != "self" {
                use_paths(&path, &item, out);
            } else if item.trim() == "self" {
                out.push(path.clone());
            }
            item.clear();
        } else {
            item.push(c);
        }
    }
}

/// The imports of one file's code (tests cut off): `(path, is a re-export)` for every `use` and
/// every inline `crate::`, `super::` or `self::` path.
fn imports(code: &str) -> Vec<(Vec<String>, bool)> {
    let code = code.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = Vec::new();
    let mut rest = code;
    let mut without_uses = String::new();
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let boundary = before
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        without_uses.push_str(before);
        let after = &rest[at + 4..];
        let Some(end) = after.find(';').filter(|_| boundary) else {
            without_uses.push_str("use ");
            rest = after;
            continue;
        };
        let line_start = before.rfind(['\n', ';', '{', '}']).map_or(0, |i| i + 1);
        let public = before[line_start..].trim_start().starts_with("pub");
        let mut paths = Vec::new();
        use_paths(&[], &after[..end], &mut paths);
        out.extend(paths.into_iter().map(|p| (p, public)));
        rest = &after[end + 1..];
    }
    without_uses.push_str(rest);
    for prefix in ["crate::", "super::", "self::"] {
        let mut rest = without_uses.as_str();
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().next_back();
            let tail = &rest[at..];
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':')) {
                let path = tail[..end]
                    .split("::")
                    .filter(|p| !p.is_empty())
                    .map(str::to_string);
                out.push((path.collect(), false));
            }
            rest = &tail[end..];
        }
    }
    out
}

/// The module `path`, named in module `from`, is in: the longest prefix that is a module.
fn resolve(modules: &BTreeMap<Module, PathBuf>, from: &Module, path: &[String]) -> Option<Module> {
    let (mut crate_name, mut base, mut rest) = (from.0, from.1.clone(), path);
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("cathedral") if from.0 == "bin" => {
            crate_name = "lib";
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|p| p == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        // A child module named directly (`use child::Item` in a `mod.rs`); anything else is
        // another crate (`std`, `serde`).
        Some(first) => {
            let mut child = base.clone();
            child.push(first.to_string());
            if !modules.contains_key(&(crate_name, child)) {
                return None;
            }
        }
        None => return None,
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .map(|n| (crate_name, full[..n].to_vec()))
        .find(|m| modules.contains_key(m))
}

#[test]
fn no_two_modules_import_each_other() {
    let modules = modules();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).expect("a source file"));
        for (path, public) in imports(&code) {
            let Some(target) = resolve(&modules, module, &path) else {
                continue;
            };
            // A module re-exporting its own submodules is their facade, not a user.
            let descendant = target.0 == module.0 && target.1.starts_with(&module.1);
            if target != *module && !(public && descendant) {
                graph.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    let name = |m: &Module| m.1.join("/");
    let allowed = |a: &Module, b: &Module| {
        ONE_IDEA
            .iter()
            .any(|(x, y, _)| (name(a) == *x && name(b) == *y) || (name(a) == *y && name(b) == *x))
    };
    let mut cycles = Vec::new();
    for (a, targets) in &graph {
        for b in targets {
            // Is there a way back from b to a?
            let mut seen = BTreeSet::new();
            let mut todo = vec![b.clone()];
            let mut back = false;
            while let Some(m) = todo.pop() {
                if m == *a {
                    back = true;
                    break;
                }
                if seen.insert(m.clone()) {
                    todo.extend(graph.get(&m).into_iter().flatten().cloned());
                }
            }
            if back && !allowed(a, b) {
                cycles.push(format!("{} -> {}", name(a), name(b)));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules in an import cycle (move what both need below both, or name the pair in ONE_IDEA \
         with the reason):\n{}",
        cycles.join("\n")
    );
    // The check sees the modules' imports at all: the solver's driver uses the search.
    let solve = ("lib", vec!["boardgame".to_string(), "solve".to_string()]);
    assert!(
        graph[&solve]
            .iter()
            .any(|m| m.1.join("/") == "boardgame/search/negamax"),
        "{:?}",
        graph[&solve]
    );
}

#[test]
fn use_trees_and_paths_resolve() {
    let mut paths = Vec::new();
    use_paths(&[], "super::{a::{B, C}, d, self}", &mut paths);
    assert_eq!(
        paths,
        [
            vec!["super", "a", "B"],
            vec!["super", "a", "C"],
            vec!["super", "d"],
            vec!["super"]
        ]
    );
    let found = imports(
        "pub use child::X;\nuse crate::a::b;\nfn f() { super::c::d(); }\n#[cfg(test)]\nuse crate::z;",
    );
    assert_eq!(
        found,
        [
            (vec!["child".to_string(), "X".to_string()], true),
            (
                vec!["crate".to_string(), "a".to_string(), "b".to_string()],
                false
            ),
            (
                vec!["super".to_string(), "c".to_string(), "d".to_string()],
                false
            ),
        ]
    );
}

/// The `mod name;` lines of a test binary's root file.
fn declared_modules(root: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(root))
        .unwrap_or_else(|e| panic!("{root}: {e}"));
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_test_file_is_a_module_of_one_test_binary() {
    // `autotests = false` (Cargo.toml): a file of tests/ that neither root names is never
    // compiled, so its tests would silently stop running.
    let roots = ["tests/main.rs", "tests/end_to_end.rs"];
    let declared: Vec<BTreeSet<String>> = roots.iter().map(|r| declared_modules(r)).collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).expect("tests/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if !matches!(stem.as_str(), "main" | "end_to_end") {
                files.insert(stem);
            }
        }
    }
    assert!(files.len() > 40, "only {} test files found", files.len());
    for file in &files {
        let named: Vec<&str> = roots
            .iter()
            .zip(&declared)
            .filter(|(_, mods)| mods.contains(file))
            .map(|(root, _)| *root)
            .collect();
        assert!(
            named.len() == 1,
            "tests/{file}.rs must be a `mod {file};` of exactly one of {roots:?}, not {named:?}"
        );
    }
    for (root, mods) in roots.iter().zip(&declared) {
        for name in mods {
            assert!(
                name == "common" || files.contains(name),
                "{root} names `mod {name};` but there is no tests/{name}.rs"
            );
        }
    }
}

/// Whether `section` of the architecture doc names `rest`, a file's path under the section's
/// folder: as written whole (`` `engine/search.rs` ``), or by its name on a line that names its
/// folder (`` `file/` `` ... `` `located.rs` ``). A folder's `mod.rs` is named by its folder; the
/// section's own `mod.rs` by the section.
fn doc_names(section: &str, rest: &str) -> bool {
    let quoted = |s: &str| format!("`{s}`");
    if rest == "mod.rs" || section.contains(&quoted(rest)) {
        return true;
    }
    let Some((dir, file)) = rest.rsplit_once('/') else {
        return false;
    };
    let last = dir.rsplit('/').next().unwrap_or(dir);
    let folder = quoted(&format!("{last}/"));
    if file == "mod.rs" {
        return section.contains(&quoted(&format!("{dir}/"))) || section.contains(&folder);
    }
    section
        .lines()
        .any(|line| line.contains(&folder) && line.contains(&quoted(file)))
}

#[test]
fn the_architecture_doc_names_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    // Each `## ` section whose heading names `src/X/` describes the folder X.
    let mut sections: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Vec<String> = Vec::new();
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            current = heading
                .split('`')
                .skip(1)
                .step_by(2)
                .filter_map(|quoted| quoted.strip_prefix("src/")?.strip_suffix('/'))
                .map(str::to_string)
                .collect();
            for folder in &current {
                sections.entry(folder.clone()).or_default();
            }
        } else {
            for folder in &current {
                let text = sections.get_mut(folder).unwrap();
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 100, "only {} source files found", files.len());
    let mut missing = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(root.join("src")).unwrap();
        let relative = relative.to_string_lossy().replace('\\', "/");
        let named = match relative.split_once('/') {
            // A file at the top of src/ (lib.rs, main.rs) is named anywhere in the doc.
            None => {
                doc.contains(&format!("`{relative}`")) || doc.contains(&format!("`src/{relative}`"))
            }
            Some((folder, rest)) => sections
                .get(folder)
                .is_some_and(|section| doc_names(section, rest)),
        };
        if !named {
            missing.push(relative);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not describe these files of src/ (each belongs in the section \
         headed by its folder, `src/X/`): {missing:#?}"
    );
}

/// The page's files (`src/web/assets/`, embedded whole by build.rs) are each named in the table
/// of modules of `docs/web.md`.
#[test]
fn the_web_doc_names_every_file_of_the_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/web.md")).unwrap();
    let mut missing: Vec<String> = std::fs::read_dir(root.join("src/web/assets"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !doc.contains(&format!("`{name}`")))
        .collect();
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/web.md does not name these files of src/web/assets/: {missing:?}"
    );
}

#[test]
fn the_doc_check_reads_paths_as_written() {
    let section = "| `file/` | `located.rs` (where), `yaml.rs` |\n| `search/negamax.rs` | x |\n";
    assert!(doc_names(section, "file/located.rs"));
    assert!(doc_names(section, "file/yaml.rs"));
    assert!(doc_names(section, "file/mod.rs"));
    assert!(doc_names(section, "search/negamax.rs"));
    assert!(doc_names(section, "mod.rs"));
    assert!(!doc_names(section, "search/tt.rs"));
    assert!(!doc_names(section, "search/mod.rs"));
    assert!(!doc_names(section, "other.rs"));
    assert!(!doc_names(section, "other/located.rs"));
}
