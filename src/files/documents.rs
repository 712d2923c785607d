//! A YAML stream cut into its documents, for the files that hold several (game records).

/// The documents of a YAML stream: each with the number of lines before it.
pub(crate) fn documents(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        let marker = line.trim_end();
        if marker == "---" || marker == "..." || marker.starts_with("--- ") {
            out.push((start, std::mem::take(&mut current)));
            start = i + 1;
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    out.push((start, current));
    out
}
