//! An agent's key file and its public half.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use sha2::{Digest, Sha256};

use crate::{b64, unb64};

/// The first word of a key file: what it is and the format's version.
const HEADER: &str = "campus-agent-key-v1 ed25519";

/// Why a key could not be loaded or made. Messages name the file, never its content.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{path}: others can read this key file; make it the owner's only (chmod 600 {path})")]
    TooOpen { path: String },
    #[error("{path}: not a campus agent key file (it is never replaced; move it away to make a new key)")]
    Unreadable { path: String },
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("no randomness from the operating system for a new key")]
    NoRandomness,
}

impl KeyError {
    /// A stable code for each failure.
    pub fn code(&self) -> &'static str {
        match self {
            KeyError::TooOpen { .. } => "key_file_too_open",
            KeyError::Unreadable { .. } => "key_unreadable",
            KeyError::Io { .. } => "key_io",
            KeyError::NoRandomness => "key_no_randomness",
        }
    }
}

/// An agent's signing key. Its secret half never leaves this type: no `Display`, no
/// serialization, and `Debug` shows only the key id. Zeroized when dropped.
pub struct AgentKey {
    signing: SigningKey,
    public: PublicKey,
}

impl fmt::Debug for AgentKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AgentKey({})", self.public.kid())
    }
}

impl AgentKey {
    /// `<dir>/<agent>.key`: read it, or make it on first start (the folder too).
    pub fn load_or_create(dir: &Path, agent: &str) -> Result<Self, KeyError> {
        let path = Self::file(dir, agent);
        match Self::load(&path) {
            Err(KeyError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
            other => return other,
        }
        let io = |source| KeyError::Io { path: path.display().to_string(), source };
        std::fs::create_dir_all(dir).map_err(io)?;
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|_| KeyError::NoRandomness)?;
        let key = Self::from_seed(seed);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(mut file) => {
                let line = format!("{HEADER} {}\n", b64(&key.signing.to_bytes()));
                file.write_all(line.as_bytes()).and_then(|()| file.sync_all()).map_err(io)?;
                Ok(key)
            }
            // another process made it first: use theirs
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Self::load(&path),
            Err(e) => Err(io(e)),
        }
    }

    /// Where an agent's key lives.
    pub fn file(dir: &Path, agent: &str) -> PathBuf {
        dir.join(format!("{agent}.key"))
    }

    fn load(path: &Path) -> Result<Self, KeyError> {
        let name = || path.display().to_string();
        let io = |source| KeyError::Io { path: name(), source };
        let meta = std::fs::metadata(path).map_err(io)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if meta.permissions().mode() & 0o077 != 0 {
                return Err(KeyError::TooOpen { path: name() });
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        let text = std::fs::read_to_string(path).map_err(|_| KeyError::Unreadable { path: name() })?;
        let seed = text
            .trim_end()
            .strip_prefix(HEADER)
            .and_then(|rest| rest.strip_prefix(' '))
            .and_then(unb64)
            .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
            .ok_or(KeyError::Unreadable { path: name() })?;
        Ok(Self::from_seed(seed))
    }

    /// A key from 32 seed bytes (tests: a fixed key).
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let signing = SigningKey::from_bytes(&seed);
        let public = PublicKey(signing.verifying_key().to_bytes());
        Self { signing, public }
    }

    pub fn public(&self) -> PublicKey {
        self.public
    }

    pub(crate) fn sign(&self, message: &[u8]) -> Signature {
        self.signing.sign(message)
    }

    /// The X25519 secret of this key ([`crate::SharedKey`]).
    pub(crate) fn scalar_bytes(&self) -> [u8; 32] {
        self.signing.to_scalar_bytes()
    }
}

/// An Ed25519 public key, written as base64url (43 characters): the 32 bytes of a point
/// checked when it was read (the curve point is decompressed again to verify).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey([u8; 32]);

impl PublicKey {
    /// Reads the base64url form; `None` for anything that is not a valid point.
    pub fn parse(text: &str) -> Option<Self> {
        let bytes = <[u8; 32]>::try_from(unb64(text.trim())?).ok()?;
        let key = VerifyingKey::from_bytes(&bytes).ok()?;
        (!key.is_weak()).then_some(Self(bytes))
    }

    pub(crate) fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The key id: its RFC 7638 JWK thumbprint (SHA-256 of the canonical JWK, base64url).
    pub fn kid(&self) -> String {
        let jwk = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{}"}}"#, self);
        b64(&Sha256::digest(jwk.as_bytes()))
    }

    /// The key as a JWK (`{"kty":"OKP","crv":"Ed25519","x":…}`).
    pub fn jwk(&self) -> serde_json::Value {
        serde_json::json!({"kty": "OKP", "crv": "Ed25519", "x": self.to_string()})
    }

    pub(crate) fn verify(&self, message: &[u8], signature: &str) -> bool {
        let Some(bytes) = unb64(signature).and_then(|b| <[u8; 64]>::try_from(b).ok()) else {
            return false;
        };
        let Ok(key) = VerifyingKey::from_bytes(&self.0) else { return false };
        key.verify_strict(message, &Signature::from_bytes(&bytes)).is_ok()
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&b64(&self.0))
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({self})")
    }
}

impl serde::Serialize for PublicKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for PublicKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Self::parse(&text).ok_or_else(|| serde::de::Error::custom("not an ed25519 public key"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("campus-keys-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn made_once_readable_by_its_owner_only_and_the_same_after_a_restart() {
        let d = dir("made");
        let first = AgentKey::load_or_create(&d, "tutor").unwrap();
        let again = AgentKey::load_or_create(&d, "tutor").unwrap();
        assert_eq!(first.public(), again.public());
        let other = AgentKey::load_or_create(&d, "library").unwrap();
        assert_ne!(first.public(), other.public(), "each agent has a key of its own");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(AgentKey::file(&d, "tutor")).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_key_file_others_can_read_is_refused_and_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("open");
        AgentKey::load_or_create(&d, "hub").unwrap();
        let path = AgentKey::file(&d, "hub");
        let before = std::fs::read(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = AgentKey::load_or_create(&d, "hub").unwrap_err();
        assert!(matches!(err, KeyError::TooOpen { .. }), "{err}");
        assert!(err.to_string().contains("chmod 600"));
        assert_eq!(std::fs::read(&path).unwrap(), before, "never replaced");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_broken_key_file_is_refused_not_replaced_and_no_error_shows_a_secret() {
        let d = dir("broken");
        let key = AgentKey::load_or_create(&d, "hub").unwrap();
        let path = AgentKey::file(&d, "hub");
        let secret = std::fs::read_to_string(&path).unwrap();
        let secret = secret.trim_end().rsplit(' ').next().unwrap().to_string();
        assert!(!format!("{key:?}").contains(&secret), "debug shows the key id only");
        std::fs::write(&path, format!("{HEADER} {}x\n", &secret[..20])).unwrap();
        let err = AgentKey::load_or_create(&d, "hub").unwrap_err();
        assert!(matches!(err, KeyError::Unreadable { .. }), "{err}");
        assert!(!err.to_string().contains(&secret[..20]));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn public_keys_round_trip_and_bad_ones_are_refused() {
        let key = AgentKey::from_seed([7; 32]);
        let text = key.public().to_string();
        assert_eq!(text.len(), 43);
        assert_eq!(PublicKey::parse(&text), Some(key.public()));
        assert_eq!(PublicKey::parse("not a key"), None);
        assert_eq!(PublicKey::parse(&b64(&[0u8; 32])), None, "a weak point is no key");
        assert_eq!(key.public().kid().len(), 43);
    }
}
