//! roost's https transport: gix's HTTP client, with every response body
//! counted as it arrives. Over https no program runs whose reads the
//! watchdog could count or end, so the count is handed to it here: the
//! server's greeting is bounded as over file:// and ssh://, every piece
//! the server sends keeps the stall clock (a slow, steady server is never
//! taken for a silent one), and a read waits for the server in short
//! steps, so once the watchdog has fired (the deadline, a stall, an
//! interrupt, a flooding greeting) the read ends at once. gix's own
//! reader would fill the whole buffer it is given before returning: one
//! pkt-line announcing 64 KiB and sent a byte a second would hold one read
//! for 18 hours, unseen.

use gix::protocol::transport::client::blocking_io::http::{
    reqwest::Remote, GetResponse, Http, PostBodyDataKind, PostResponse,
};
use std::io::{BufRead, Read};
use std::sync::mpsc;
use std::time::Duration;

/// The HTTP client gix's https transport drives.
#[derive(Default)]
pub struct Counted(Remote);

type Headers = <Remote as Http>::Headers;
type Inner = <Remote as Http>::ResponseBody;

impl Http for Counted {
    type Headers = Headers;
    type ResponseBody = Body<Inner>;
    type PostBody = <Remote as Http>::PostBody;

    fn get(
        &mut self,
        url: &str,
        base_url: &str,
        headers: impl IntoIterator<Item = impl AsRef<str>>,
    ) -> gix::error::Result<GetResponse<Headers, Body<Inner>>> {
        let r = self.0.get(url, base_url, headers)?;
        Ok(GetResponse {
            headers: r.headers,
            body: Body::new(r.body),
        })
    }

    fn post(
        &mut self,
        url: &str,
        base_url: &str,
        headers: impl IntoIterator<Item = impl AsRef<str>>,
        body: PostBodyDataKind,
    ) -> gix::error::Result<PostResponse<Headers, Body<Inner>, Self::PostBody>> {
        let r = self.0.post(url, base_url, headers, body)?;
        Ok(PostResponse {
            post_body: r.post_body,
            headers: r.headers,
            body: Body::new(r.body),
        })
    }

    fn configure(&mut self, config: &dyn std::any::Any) -> gix::error::Result {
        self.0.configure(config)
    }

    fn redirected_base_url(&self) -> Option<String> {
        self.0.redirected_base_url()
    }
}

/// A response body whose every byte the watchdog is told of as it
/// arrives; after the watchdog has fired it gives no more, at once.
pub struct Body<R> {
    pieces: mpsc::Receiver<std::io::Result<Vec<u8>>>,
    /// What arrived and was not read yet: `buf[at..]`.
    buf: Vec<u8>,
    at: usize,
    done: bool,
    _reader: std::marker::PhantomData<R>,
}

/// How often a read waiting for the server looks at the watchdog.
const LOOK: Duration = Duration::from_millis(50);

impl<R: BufRead + Send + 'static> Body<R> {
    /// A thread takes the pieces from `inner` as they come (its
    /// `fill_buf` gives one piece, however small, without waiting for
    /// more). It ends with the body, or stays blocked on a server that
    /// the watchdog has given up on, holding nothing roost needs.
    fn new(mut inner: R) -> Body<R> {
        let (tx, pieces) = mpsc::sync_channel(4);
        std::thread::spawn(move || loop {
            let piece = match inner.fill_buf() {
                Ok([]) => return,
                Ok(piece) => Ok(piece.to_vec()),
                Err(e) => Err(e),
            };
            let failed = piece.is_err();
            if let Ok(p) = &piece {
                let n = p.len();
                inner.consume(n);
            }
            if tx.send(piece).is_err() || failed {
                return;
            }
        });
        Body {
            pieces,
            buf: Vec::new(),
            at: 0,
            done: false,
            _reader: std::marker::PhantomData,
        }
    }
}

impl<R> Body<R> {
    /// Waits for the next piece, looking at the watchdog every `LOOK`.
    fn next_piece(&mut self) -> std::io::Result<()> {
        while self.at == self.buf.len() && !self.done {
            super::watchdog::check()?;
            match self.pieces.recv_timeout(LOOK) {
                Ok(Ok(piece)) => {
                    super::watchdog::received(piece.len());
                    self.buf = piece;
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => self.done = true,
            }
        }
        super::watchdog::check()
    }
}

impl<R> Read for Body<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let got = self.fill_buf()?;
        let n = got.len().min(out.len());
        out[..n].copy_from_slice(&got[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R> BufRead for Body<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.next_piece()?;
        Ok(&self.buf[self.at..])
    }

    fn consume(&mut self, amt: usize) {
        self.at = (self.at + amt).min(self.buf.len());
    }
}
