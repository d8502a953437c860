//! TLS to PostgreSQL with rustls, honouring libpq's `sslmode` (and `sslrootcert`) in the
//! database URL:
//!
//! | sslmode | encrypted | certificate checked |
//! |---|---|---|
//! | `disable` | never | — |
//! | `prefer` (the default for a non-loopback host) | when the server offers it | no (as libpq) |
//! | `require` | always, or no connection | no; the chain when `sslrootcert` is given (as libpq) |
//! | `verify-ca` | always | the chain, against `sslrootcert` (a PEM file; `system` or none: the public CAs) |
//! | `verify-full` | always | the chain and the host name |
//!
//! A URL without `sslmode` whose hosts are all loopback (or Unix sockets) connects in plain:
//! nothing leaves the machine.
//!
//! Channel binding (SCRAM-SHA-256-PLUS) is offered on every TLS connection: the stream gives
//! tokio-postgres the `tls-server-end-point` data (RFC 5929: the hash of the server's
//! certificate), so a server that asks for a SCRAM password gets a proof bound to this TLS
//! session and a man in the middle with another certificate cannot relay it.
//! `channel_binding` in the URL is libpq's: `prefer` (the default) uses it when the server
//! supports it, `require` refuses a server that does not (and needs TLS), `disable` never.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_postgres::config::{ChannelBinding as ChannelBindingMode, Host, SslMode};
use tokio_postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect, TlsStream};
use tokio_postgres::{Config, Socket};

use crate::store::StoreError;

/// Where and how to connect: the parsed configuration and the TLS connector (None: plain).
#[derive(Clone)]
pub struct PgTarget {
    pub config: Config,
    pub tls: Option<RustlsConnect>,
}

impl std::fmt::Debug for PgTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgTarget").field("tls", &self.tls.is_some()).finish()
    }
}

impl PgTarget {
    /// Reads a `postgres://` URL, taking `sslmode` and `sslrootcert` out of its query.
    pub fn parse(url: &str) -> Result<Self, StoreError> {
        let (base, query) = url.split_once('?').unwrap_or((url, ""));
        let mut sslmode = None;
        let mut rootcert = None;
        let mut rest = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("sslmode", v)) => sslmode = Some(v.to_string()),
                Some(("sslrootcert", v)) => rootcert = Some(crate::forms::percent_decode(v)),
                _ => rest.push(pair),
            }
        }
        let plain_url = if rest.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", rest.join("&"))
        };
        let mut config: Config = plain_url.parse().map_err(|e| StoreError::Url(format!("{e}")))?;
        let sslmode_given = sslmode.is_some();
        let loopback_only = config.get_hosts().iter().all(|h| match h {
            Host::Tcp(name) => crate::urls::is_loopback_host(name),
            #[cfg(unix)]
            Host::Unix(_) => true,
        });
        let mode = sslmode.unwrap_or_else(|| if loopback_only { "disable" } else { "prefer" }.to_string());
        let verify = match mode.as_str() {
            "disable" => {
                if config.get_channel_binding() == ChannelBindingMode::Require {
                    return Err(StoreError::Url(format!(
                        "channel_binding=require needs TLS, and this URL connects in plain (sslmode={mode}{}): \
                         set sslmode=require, verify-ca or verify-full",
                        if sslmode_given { "" } else { ", the default for a loopback host" }
                    )));
                }
                config.ssl_mode(SslMode::Disable);
                return Ok(Self { config, tls: None });
            }
            "prefer" | "require" => {
                config.ssl_mode(if mode == "prefer" { SslMode::Prefer } else { SslMode::Require });
                if rootcert.is_some() { Verify::Chain } else { Verify::Nothing }
            }
            "verify-ca" => {
                config.ssl_mode(SslMode::Require);
                Verify::Chain
            }
            "verify-full" => {
                config.ssl_mode(SslMode::Require);
                Verify::Full
            }
            other => {
                return Err(StoreError::Url(format!(
                    "sslmode={other}: use disable, prefer, require, verify-ca or verify-full"
                )));
            }
        };
        let client = client_config(verify, rootcert.as_deref())?;
        Ok(Self {
            config,
            tls: Some(RustlsConnect(Arc::new(client))),
        })
    }

    /// Opens one connection; the connection's task is returned for the caller to spawn.
    pub async fn connect(&self) -> Result<(tokio_postgres::Client, ConnectionTask), StoreError> {
        match &self.tls {
            None => {
                let (client, connection) = self.config.connect(tokio_postgres::NoTls).await?;
                Ok((client, Box::pin(connection)))
            }
            Some(tls) => {
                let (client, connection) = self.config.connect(tls.clone()).await?;
                Ok((client, Box::pin(connection)))
            }
        }
    }
}

/// A connection's I/O, to be spawned (it ends when the connection closes).
pub type ConnectionTask = Pin<Box<dyn Future<Output = Result<(), tokio_postgres::Error>> + Send>>;

#[derive(Clone, Copy)]
enum Verify {
    Nothing,
    Chain,
    Full,
}

fn client_config(verify: Verify, rootcert: Option<&str>) -> Result<ClientConfig, StoreError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Url(format!("TLS: {e}")))?;
    let algorithms = provider.signature_verification_algorithms;
    let config = match verify {
        Verify::Nothing => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Unverified(algorithms)))
            .with_no_client_auth(),
        Verify::Chain | Verify::Full => {
            let roots = Arc::new(roots(rootcert)?);
            let webpki = WebPkiServerVerifier::builder_with_provider(roots, Arc::clone(&provider))
                .build()
                .map_err(|e| StoreError::Url(format!("sslrootcert: {e}")))?;
            match verify {
                Verify::Full => builder.with_webpki_verifier(webpki).with_no_client_auth(),
                _ => builder
                    .dangerous()
                    .with_custom_certificate_verifier(Arc::new(ChainOnly(webpki)))
                    .with_no_client_auth(),
            }
        }
    };
    Ok(config)
}

/// The trusted roots: the PEM file `sslrootcert`, or the public CAs (none, or `system`).
fn roots(rootcert: Option<&str>) -> Result<RootCertStore, StoreError> {
    let mut roots = RootCertStore::empty();
    match rootcert {
        None | Some("system") => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path).map_err(|e| StoreError::Url(format!("sslrootcert {path}: {e}")))?;
            for cert in certs {
                let cert = cert.map_err(|e| StoreError::Url(format!("sslrootcert {path}: {e}")))?;
                roots.add(cert).map_err(|e| StoreError::Url(format!("sslrootcert {path}: {e}")))?;
            }
            if roots.is_empty() {
                return Err(StoreError::Url(format!("sslrootcert {path}: no certificate in the file")));
            }
        }
    }
    Ok(roots)
}

/// `prefer` and `require` without a root certificate: encrypted, but any certificate is
/// taken (libpq does the same); the signatures of the handshake are still checked.
#[derive(Debug)]
struct Unverified(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        m: &[u8],
        c: &CertificateDer<'_>,
        d: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(m, c, d, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        m: &[u8],
        c: &CertificateDer<'_>,
        d: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(m, c, d, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// `verify-ca`: the chain must lead to a trusted root; the name in it is not compared.
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.0.verify_server_cert(end_entity, intermediates, name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. })) => {
                Ok(ServerCertVerified::assertion())
            }
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        m: &[u8],
        c: &CertificateDer<'_>,
        d: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(m, c, d)
    }

    fn verify_tls13_signature(
        &self,
        m: &[u8],
        c: &CertificateDer<'_>,
        d: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(m, c, d)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// tokio-postgres's TLS hook over tokio-rustls.
#[derive(Clone)]
pub struct RustlsConnect(Arc<ClientConfig>);

impl MakeTlsConnect<Socket> for RustlsConnect {
    type Stream = RustlsStream<Socket>;
    type TlsConnect = RustlsConnector;
    type Error = io::Error;

    fn make_tls_connect(&mut self, domain: &str) -> Result<RustlsConnector, io::Error> {
        let name = ServerName::try_from(domain.to_string()).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        Ok(RustlsConnector {
            name,
            connector: tokio_rustls::TlsConnector::from(Arc::clone(&self.0)),
        })
    }
}

pub struct RustlsConnector {
    name: ServerName<'static>,
    connector: tokio_rustls::TlsConnector,
}

/// Over any byte stream (tokio-postgres's own socket in the server; a plain TCP stream in the
/// tests, which open the TLS session by hand to see what it offers).
impl<S: AsyncRead + AsyncWrite + Unpin + Send + 'static> TlsConnect<S> for RustlsConnector {
    type Stream = RustlsStream<S>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<RustlsStream<S>>> + Send>>;

    fn connect(self, stream: S) -> Self::Future {
        Box::pin(async move { self.connector.connect(self.name, stream).await.map(|s| RustlsStream(Box::new(s))) })
    }
}

pub struct RustlsStream<S>(Box<tokio_rustls::client::TlsStream<S>>);

impl<S> RustlsStream<S> {
    /// The `tls-server-end-point` data of this session (see `server_end_point`).
    pub fn server_end_point(&self) -> Option<Vec<u8>> {
        let (_, connection) = self.0.get_ref();
        connection
            .peer_certificates()
            .and_then(|chain| chain.first())
            .and_then(|cert| server_end_point(cert))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> TlsStream for RustlsStream<S> {
    /// The `tls-server-end-point` data, or none when the certificate's signature names no
    /// usable hash (Ed25519, RSA-PSS): tokio-postgres then uses SCRAM without binding, and a
    /// URL with `channel_binding=require` is refused.
    fn channel_binding(&self) -> ChannelBinding {
        match self.server_end_point() {
            Some(data) => ChannelBinding::tls_server_end_point(data),
            None => ChannelBinding::none(),
        }
    }
}

/// RFC 5929's `tls-server-end-point` for a server certificate (DER): its hash with the hash
/// function of its own signature algorithm, SHA-256 in place of MD5 and SHA-1; None for an
/// algorithm without one (PostgreSQL's server cannot bind those either).
pub fn server_end_point(cert: &[u8]) -> Option<Vec<u8>> {
    // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm AlgorithmIdentifier, … }
    let (certificate, _) = der_sequence(cert)?;
    let (_, after_tbs) = der_sequence(certificate)?;
    let (algorithm, _) = der_sequence(after_tbs)?;
    let (0x06, oid, _) = der_element(algorithm)? else { return None };
    const RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01]; // 1.2.840.113549.1.1
    const ECDSA_SHA2: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03]; // 1.2.840.10045.4.3
    const ECDSA_SHA1: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x01]; // 1.2.840.10045.4.1
    let hash = match oid.split_last()? {
        (4 | 5, RSA) => Sha256::digest(cert).to_vec(), // MD5, SHA-1: SHA-256 instead
        (11, RSA) | (2, ECDSA_SHA2) => Sha256::digest(cert).to_vec(),
        (12, RSA) | (3, ECDSA_SHA2) => Sha384::digest(cert).to_vec(),
        (13, RSA) | (4, ECDSA_SHA2) => Sha512::digest(cert).to_vec(),
        (14, RSA) | (1, ECDSA_SHA2) => Sha224::digest(cert).to_vec(),
        _ if oid == ECDSA_SHA1 => Sha256::digest(cert).to_vec(),
        _ => return None,
    };
    Some(hash)
}

/// A DER SEQUENCE's contents and what follows it.
fn der_sequence(input: &[u8]) -> Option<(&[u8], &[u8])> {
    match der_element(input)? {
        (0x30, contents, rest) => Some((contents, rest)),
        _ => None,
    }
}

/// One DER element: its tag, its contents and what follows it (None when it is cut short).
fn der_element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, input) = input.split_first()?;
    let (&first, mut input) = input.split_first()?;
    let len = if first < 0x80 {
        usize::from(first)
    } else {
        let octets = usize::from(first & 0x7f);
        if octets == 0 || octets > 4 || input.len() < octets {
            return None;
        }
        let (len, rest) = input.split_at(octets);
        input = rest;
        len.iter().fold(0usize, |n, &b| (n << 8) | usize::from(b))
    };
    if input.len() < len {
        return None;
    }
    let (contents, rest) = input.split_at(len);
    Some((tag, contents, rest))
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for RustlsStream<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for RustlsStream<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut *self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A self-signed certificate made by the openssl command with `args` (key and digest
    /// options), as DER; None (and a note) when openssl is not installed.
    fn certificate(args: &[&str]) -> Option<Vec<u8>> {
        static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("site-tls-test-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let pem = dir.join("cert.pem");
        let made = std::process::Command::new("openssl")
            .args(["req", "-x509", "-nodes", "-subj", "/CN=db.test", "-days", "1", "-keyout"])
            .arg(dir.join("key.pem"))
            .arg("-out")
            .arg(&pem)
            .args(args)
            .output();
        match made {
            Ok(out) if out.status.success() => {}
            Ok(out) => panic!("openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr)),
            Err(e) => {
                eprintln!("openssl could not run ({e}): this test checked nothing");
                return None;
            }
        }
        let der = CertificateDer::from_pem_file(&pem).expect("PEM").to_vec();
        let _ = std::fs::remove_dir_all(&dir);
        Some(der)
    }

    #[test]
    fn the_end_point_hashes_the_certificate_with_its_signature_hash() {
        type Hash = fn(&[u8]) -> Vec<u8>;
        let cases: [(&[&str], Hash); 5] = [
            (&["-newkey", "rsa:2048", "-sha256"], |c| Sha256::digest(c).to_vec()),
            (&["-newkey", "rsa:2048", "-sha384"], |c| Sha384::digest(c).to_vec()),
            (&["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-sha512"], |c| {
                Sha512::digest(c).to_vec()
            }),
            (&["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-sha384"], |c| {
                Sha384::digest(c).to_vec()
            }),
            // SHA-1 is replaced by SHA-256 (RFC 5929, section 4.1).
            (&["-newkey", "rsa:2048", "-sha1"], |c| Sha256::digest(c).to_vec()),
        ];
        for (args, expected) in cases {
            let Some(cert) = certificate(args) else { return };
            assert_eq!(server_end_point(&cert), Some(expected(&cert)), "{args:?}");
        }
        // Ed25519 signs without a separate hash: no binding, as PostgreSQL's server.
        let Some(cert) = certificate(&["-newkey", "ed25519"]) else { return };
        assert_eq!(server_end_point(&cert), None);
        // Not a certificate, or one cut short: none, and no panic.
        assert_eq!(server_end_point(b"not DER"), None);
        assert_eq!(server_end_point(&cert[..cert.len() / 2]), None);
    }

    #[test]
    fn channel_binding_require_needs_tls() {
        let err = PgTarget::parse("postgres://site@127.0.0.1/site?channel_binding=require").expect_err("plain");
        assert!(err.to_string().contains("channel_binding=require needs TLS"), "{err}");
        assert!(err.to_string().contains("the default for a loopback host"), "{err}");
        let err = PgTarget::parse("postgres://site@db.test/site?sslmode=disable&channel_binding=require").expect_err("plain");
        assert!(err.to_string().contains("sslmode=disable)"), "{err}");
        let target = PgTarget::parse("postgres://site@db.test/site?sslmode=require&channel_binding=require").expect("TLS");
        assert_eq!(target.config.get_channel_binding(), ChannelBindingMode::Require);
        assert!(target.tls.is_some());
        // Offered by default.
        let target = PgTarget::parse("postgres://site@db.test/site?sslmode=require").expect("TLS");
        assert_eq!(target.config.get_channel_binding(), ChannelBindingMode::Prefer);
    }
}
