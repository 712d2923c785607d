//! The colours people must tell apart stay apart for people with colour-vision deficiencies:
//! every pair below is compared as seen with normal vision and as simulated for protanopia,
//! deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1), by the CIE 1976
//! colour difference. The board's colours come from the library, the page's from its style sheet.

use cathedral::draw::svg::colours;

/// Machado et al. (2009), severity 1.0, applied to linear RGB.
const VISIONS: [(&str, [[f64; 3]; 3]); 4] = [
    (
        "normal",
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    ),
    (
        "protanopia",
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ],
    ),
    (
        "deuteranopia",
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ],
    ),
    (
        "tritanopia",
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ],
    ),
];

fn linear(hex: &str) -> [f64; 3] {
    let value = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("#rrggbb");
    [16, 8, 0].map(|shift| {
        let c = f64::from((value >> shift) & 0xff) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    })
}

fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

fn seen(hex: &str, matrix: &[[f64; 3]; 3]) -> [f64; 3] {
    let c = linear(hex);
    lab(matrix.map(|row| (row[0] * c[0] + row[1] * c[1] + row[2] * c[2]).clamp(0.0, 1.0)))
}

fn difference(a: &str, b: &str, matrix: &[[f64; 3]; 3]) -> f64 {
    let (p, q) = (seen(a, matrix), seen(b, matrix));
    p.iter()
        .zip(q)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The page's colour `--name` from its style sheet (src/web/assets/style.css).
fn page(name: &str) -> String {
    let html = include_str!("../src/web/assets/style.css");
    let start = html
        .find(&format!("--{name}:"))
        .unwrap_or_else(|| panic!("--{name} in the page's style"));
    html[start..]
        .split(':')
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .trim()
        .to_string()
}

/// Differences below this are hard to see on a board; 20 is about the gap between two
/// neighbouring colours of a good qualitative palette.
const APART: f64 = 20.0;

#[test]
fn colours_that_must_differ_differ_for_every_colour_vision() {
    let legal = page("legal");
    let refused = page("refused");
    let claim_light = page("claim-light");
    let claim_dark = page("claim-dark");
    let capture = page("capture");
    let near_miss = page("near-miss");
    let world_light = page("world-light");
    let world_dark = page("world-dark");
    let world_people = page("world-people");
    let world_claim_dark = page("world-claim-dark");
    let world_light_territory = page("world-light-territory");
    let world_dark_territory = page("world-dark-territory");
    let world_claim_light = page("world-claim-light");
    let own_light = page("own-light");
    let own_dark = page("own-dark");
    let pairs: Vec<(&str, &str, &str)> = vec![
        ("Light's buildings", colours::LIGHT, colours::DARK),
        (
            "Light's buildings and the Cathedral",
            colours::LIGHT,
            colours::CATHEDRAL,
        ),
        (
            "Dark's buildings and the Cathedral",
            colours::DARK,
            colours::CATHEDRAL,
        ),
        (
            "Dark's buildings and an empty cell",
            colours::DARK,
            colours::BOARD,
        ),
        (
            "the Cathedral and an empty cell",
            colours::CATHEDRAL,
            colours::BOARD,
        ),
        (
            "Dark's territory and an empty cell",
            colours::DARK_TERRITORY,
            colours::BOARD,
        ),
        (
            "the last move's outline on Light",
            colours::HIGHLIGHT,
            colours::LIGHT,
        ),
        (
            "the last move's outline on Dark",
            colours::HIGHLIGHT,
            colours::DARK,
        ),
        (
            "the last move's outline on the Cathedral",
            colours::HIGHLIGHT,
            colours::CATHEDRAL,
        ),
        ("a legal and a refused placement", &legal, &refused),
        ("a legal placement on an empty cell", &legal, colours::BOARD),
        (
            "a refused placement on an empty cell",
            &refused,
            colours::BOARD,
        ),
        (
            "Light's claim on its territory",
            &claim_light,
            colours::LIGHT_TERRITORY,
        ),
        (
            "Dark's claim on its territory",
            &claim_dark,
            colours::DARK_TERRITORY,
        ),
        ("Light's and Dark's claims", &claim_light, &claim_dark),
        (
            "a capture mark on Dark's territory",
            &capture,
            colours::DARK_TERRITORY,
        ),
        (
            "a capture mark on Light's territory",
            &capture,
            colours::LIGHT_TERRITORY,
        ),
        ("a near miss on an empty cell", &near_miss, colours::BOARD),
        ("a near miss and a capture", &near_miss, &capture),
        // Issue 45: a near miss in the blue of a legal preview read as a placement.
        ("a near miss and a legal placement", &near_miss, &legal),
        // The World edition's display: its own colours for Light, Dark and the People.
        (
            "World: Light's and Dark's buildings",
            &world_light,
            &world_dark,
        ),
        (
            "World: Light's buildings and the People",
            &world_light,
            &world_people,
        ),
        (
            "World: Dark's buildings and the People",
            &world_dark,
            &world_people,
        ),
        (
            "World: Dark's buildings and an empty cell",
            &world_dark,
            colours::BOARD,
        ),
        (
            "World: the People and an empty cell",
            &world_people,
            colours::BOARD,
        ),
        // Issue 45: the classic brown claim mark stood on the World's blue Dark.
        (
            "World: Dark's claim on its territory",
            &world_claim_dark,
            &world_dark_territory,
        ),
        (
            "World: Light's claim on its territory",
            &world_claim_light,
            &world_light_territory,
        ),
        (
            "World: Light's and Dark's claims",
            &world_claim_light,
            &world_claim_dark,
        ),
        // The territory view's two shades, and each on an empty cell.
        ("the territory view's Light and Dark", &own_light, &own_dark),
        (
            "the territory view's Dark on an empty cell",
            &own_dark,
            colours::BOARD,
        ),
    ];
    let mut failures = Vec::new();
    for (what, a, b) in &pairs {
        for (vision, matrix) in &VISIONS {
            let d = difference(a, b, matrix);
            if d < APART {
                failures.push(format!("{what} ({a} vs {b}) under {vision}: {d:.1}"));
            }
        }
    }
    assert!(failures.is_empty(), "too close:\n{}", failures.join("\n"));
}

/// Light's buildings are pale on white and the two territories are pale grounds; what tells them
/// apart is the outline and the hatching in the owner's colour. These pairs only need to be
/// visible, not far apart.
#[test]
fn pale_grounds_remain_visible() {
    for (a, b) in [
        (colours::LIGHT, colours::BOARD),
        (colours::LIGHT_TERRITORY, colours::BOARD),
        (colours::LIGHT_TERRITORY, colours::DARK_TERRITORY),
    ] {
        for (vision, matrix) in &VISIONS {
            let d = difference(a, b, matrix);
            assert!(d >= 10.0, "{a} vs {b} under {vision}: {d:.1}");
        }
    }
}

#[test]
fn the_simulation_is_the_published_one() {
    // Pure red and green, the classic confusion: far apart for normal vision, close under
    // deuteranopia; white stays white under every simulation.
    let [normal, _, deuteranopia, _] = VISIONS.map(|(_, m)| difference("#ff0000", "#00ff00", &m));
    assert!(
        normal > 150.0 && deuteranopia < 40.0,
        "{normal} {deuteranopia}"
    );
    for (_, matrix) in &VISIONS {
        assert!(difference("#ffffff", "#ffffff", matrix) < 1e-9);
        let white = seen("#ffffff", matrix);
        assert!((white[0] - 100.0).abs() < 2.0, "{white:?}");
    }
}
