//! A printable HTML worksheet: the puzzles' diagrams (inline SVG), two per row, the question
//! under each, and the answers on a separate page.

use crate::cathedral::file::PositionFile;
use crate::present::svg::{SvgOptions, render_svg};

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Puzzles per printed page (two rows of two).
const PER_PAGE: usize = 4;

const STYLE: &str = "
body { font-family: Georgia, 'Times New Roman', serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 0.6em 0; }
.page { display: grid; grid-template-columns: 1fr 1fr; gap: 1.2em 1.5em; }
.puzzle { break-inside: avoid; page-break-inside: avoid; }
.puzzle svg { width: 100%; height: auto; }
.question { font-weight: bold; margin: 0.3em 0 0 0; }
.number { color: #666; }
.answers { break-before: page; page-break-before: always; }
.answers li { margin-bottom: 0.6em; break-inside: avoid; }
.answers code { font-size: 0.95em; }
@media print {
  body { margin: 0; }
  .page { break-after: page; page-break-after: always; }
  .page:last-of-type { break-after: auto; }
}
";

/// The worksheet of `puzzles` (name, file): every file must carry a `puzzle:` and a `solution:`
/// block (the caller checks).
pub fn sheet_html(title: &str, puzzles: &[(String, PositionFile)]) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    out.push_str(&format!("<h1>{}</h1>\n", escape(title)));
    for (page, chunk) in puzzles.chunks(PER_PAGE).enumerate() {
        out.push_str("<section class=\"page\">\n");
        for (i, (_, file)) in chunk.iter().enumerate() {
            let number = page * PER_PAGE + i + 1;
            let question = file
                .puzzle
                .as_ref()
                .map_or_else(String::new, |p| p.question.clone());
            let svg = render_svg(
                &file.position,
                &SvgOptions {
                    hands: true,
                    ..SvgOptions::default()
                },
            );
            // The SVG's XML declaration (if any) does not belong inside HTML.
            let svg = svg
                .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .unwrap_or(&svg);
            out.push_str(&format!(
                "<div class=\"puzzle\">\n{svg}\n<p class=\"question\"><span class=\"number\">{number}.</span> {}</p>\n</div>\n",
                escape(&question)
            ));
        }
        out.push_str("</section>\n");
    }
    out.push_str("<section class=\"answers\">\n<h1>Answers</h1>\n<ol>\n");
    for (name, file) in puzzles {
        let best = file
            .solution
            .as_ref()
            .and_then(|s| s.best_move.clone())
            .unwrap_or_default();
        let explanation = file
            .solution
            .as_ref()
            .and_then(|s| s.explanations.first())
            .map(|e| e.lines().map(str::trim).collect::<Vec<_>>().join("; "))
            .unwrap_or_default();
        let question = file
            .puzzle
            .as_ref()
            .map_or_else(String::new, |p| p.question.clone());
        out.push_str(&format!(
            "<li><code>{}</code> ({}, {}): {}</li>\n",
            escape(&best),
            escape(name),
            escape(&question),
            escape(&explanation)
        ));
    }
    out.push_str("</ol>\n</section>\n</body>\n</html>\n");
    out
}
