//! The search machinery: negamax alpha-beta over a final score ([`negamax`]), the shared lock-free
//! transposition table ([`tt`]) and the bucket storage it shares with the proof table
//! (`buckets`), "being searched" marks that spread threads over different
//! children ([`busy`]) and probes shared by every thread ([`parallel`]).

pub(crate) mod buckets;
pub mod busy;
pub mod negamax;
pub mod parallel;
pub mod tt;
