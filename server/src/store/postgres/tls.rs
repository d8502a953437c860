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
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_postgres::config::{Host, SslMode};
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
        let loopback_only = config.get_hosts().iter().all(|h| match h {
            Host::Tcp(name) => crate::urls::is_loopback_host(name),
            #[cfg(unix)]
            Host::Unix(_) => true,
        });
        let mode = sslmode.unwrap_or_else(|| if loopback_only { "disable" } else { "prefer" }.to_string());
        let verify = match mode.as_str() {
            "disable" => {
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
    type Stream = RustlsStream;
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

impl TlsConnect<Socket> for RustlsConnector {
    type Stream = RustlsStream;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<RustlsStream>> + Send>>;

    fn connect(self, stream: Socket) -> Self::Future {
        Box::pin(async move { self.connector.connect(self.name, stream).await.map(|s| RustlsStream(Box::new(s))) })
    }
}

pub struct RustlsStream(Box<tokio_rustls::client::TlsStream<Socket>>);

impl TlsStream for RustlsStream {
    fn channel_binding(&self) -> ChannelBinding {
        ChannelBinding::none()
    }
}

impl AsyncRead for RustlsStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for RustlsStream {
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
