//! Players' names, passwords and session tokens: names checked for what a page can show,
//! passwords kept only as argon2id hashes (the `argon2` crate's defaults, OWASP's minimum), and
//! tokens from the system's secure random source, stored only as their SHA-256.

use argon2::Argon2;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};

/// The shortest and longest name.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;
/// The shortest and longest password.
pub const PASSWORD_LENGTH: std::ops::RangeInclusive<usize> = 8..=128;

/// A name or password that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// A name too short or too long.
    #[error("a name has {} to {} characters: letters, digits, `-` and `_`", NAME_LENGTH.start(), NAME_LENGTH.end())]
    NameLength,
    /// A name has only letters, digits, `-` and `_`, starting with a letter.
    #[error("a name has only letters, digits, `-` and `_`, starting with a letter")]
    NameCharacters,
    /// Names starting `guest-` are given to guests.
    #[error("names starting `guest-` are given to guests")]
    GuestName,
    /// A password too short or too long.
    #[error("a password has {} to {} characters", PASSWORD_LENGTH.start(), PASSWORD_LENGTH.end())]
    PasswordLength,
}

/// Checks a name a person chose: 3 to 20 ASCII letters, digits, `-` and `_`, starting with a
/// letter (so that it never needs escaping, in a page or a link, and reads the same to all).
///
/// ```
/// use cathedral::play::check_name;
/// assert!(check_name("Ada_L").is_ok());
/// assert!(check_name("<b>x</b>").is_err());
/// assert!(check_name("guest-12").is_err());
/// ```
pub fn check_name(name: &str) -> Result<(), AccountError> {
    if !NAME_LENGTH.contains(&name.chars().count()) {
        return Err(AccountError::NameLength);
    }
    let mut chars = name.chars();
    let first_is_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !first_is_letter
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(AccountError::NameCharacters);
    }
    if name.to_ascii_lowercase().starts_with("guest-") {
        return Err(AccountError::GuestName);
    }
    Ok(())
}

/// Checks a password's length.
pub fn check_password(password: &str) -> Result<(), AccountError> {
    if PASSWORD_LENGTH.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(AccountError::PasswordLength)
    }
}

/// The argon2id hash of `password` with a fresh salt, in the PHC string form.
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        // Hashing fails only for parameters out of range, and these are the defaults.
        .unwrap_or_default()
}

/// Whether `password` matches the stored `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A fresh secret of 32 random bytes as 64 hex digits (a session token, a CSRF token).
pub fn secret() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    hex(&bytes)
}

/// A fresh id for a game or a challenge: 12 characters of an alphabet without look-alikes,
/// short enough to read out, 59 bits of chance.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
    let mut bytes = [0u8; 12];
    OsRng.fill_bytes(&mut bytes);
    bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// What is stored of a token: its SHA-256, so that a copy of the database signs nobody in.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsf", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(
            hash,
            hash_password("correct horse"),
            "a fresh salt each time"
        );
    }

    #[test]
    fn names_are_plain_and_secrets_fresh() {
        for bad in [
            "ab",
            "1abc",
            "a b c",
            "ab\"c",
            "abc<",
            "é-abc",
            "a".repeat(21).as_str(),
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        for good in ["abc", "Ada-Lovelace", "x_1"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        assert_ne!(secret(), secret());
        assert_eq!(secret().len(), 64);
        assert_eq!(new_id().len(), 12);
        assert_eq!(token_hash("a").len(), 64);
        assert!(check_password("short").is_err() && check_password("long enough").is_ok());
    }
}
