//! The command line's options: every range the front ends share ([`cathedral::frontend::limits`],
//! re-exported here), and those only the command line has.

pub use cathedral::frontend::limits::*;

/// A puzzle's margin in squares: 1 to 94 (the widest possible score difference).
pub fn margin(text: &str) -> Result<i32, String> {
    whole(text, 1, 94, "a margin in squares")
}

/// Buildings left in the larger hand: 1 to 14 (a full set).
pub fn buildings(text: &str) -> Result<u32, String> {
    whole(text, 1, 14, "a number of buildings")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_and_buildings_in_range() {
        assert!(margin("-3").is_err());
        assert!(margin("95").is_err());
        assert_eq!(margin("94"), Ok(94));
        assert!(buildings("0").is_err());
        assert!(buildings("15").is_err());
        assert_eq!(buildings("14"), Ok(14));
    }
}
