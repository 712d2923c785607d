//! The SVG drawing as RGB pixels, for `render_mode="rgb_array"`.

use resvg::{tiny_skia, usvg};

/// Renders `svg` at `scale` on white: (width, height, RGB bytes row by row).
pub(crate) fn rgb(svg: &str, scale: f32) -> Result<(u32, u32, Vec<u8>), String> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| format!("the drawing is not valid SVG: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or("the image would be empty")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the image would be empty")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Opaque on white, so the premultiplied RGB is the colour itself.
    let rgb = pixmap
        .pixels()
        .iter()
        .flat_map(|p| [p.red(), p.green(), p.blue()])
        .collect();
    Ok((size.width(), size.height(), rgb))
}
