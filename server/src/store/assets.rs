//! The content-hashed files of the releases running on one database (migration 0010): each
//! server records its own at start, and answers a request for a file it does not embed (one
//! of a newer or older release, named by a page another server rendered) from here. A
//! rolling upgrade thus never answers a page's script with 404 (docs/operations.md,
//! "Running several servers"; docs/decisions/024-rolling-upgrades.md).

/// How many releases' files are kept: the one starting now and the one before it.
pub const KEEP_RELEASES: usize = 2;

/// One file as recorded: its path (`/assets/<name>`), content type and bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedAsset {
    pub path: String,
    pub content_type: String,
    pub body: Vec<u8>,
    pub gzip: Vec<u8>,
}

/// The files one binary serves under content-hashed paths, named by the hash of their paths.
#[derive(Debug, Clone)]
pub struct AssetRelease {
    /// Hex SHA-256 of the sorted paths: the same files, the same release, whatever the binary.
    pub release: String,
    /// The binary's version, for operators reading the table.
    pub version: String,
    pub files: Vec<RecordedAsset>,
}
