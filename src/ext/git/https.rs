//! roost's https transport: gix's HTTP client, with every response body
//! counted as roost reads it. Over https no program runs whose reads the
//! watchdog could count or end, so the count is handed to it here: the
//! server's greeting is bounded as over file:// and ssh://, its progress
//! keeps the stall clock, and once the watchdog has fired the next read
//! fails.

use gix::protocol::transport::client::blocking_io::http::{
    reqwest::Remote, GetResponse, Http, PostBodyDataKind, PostResponse,
};
use std::io::{BufRead, Read};

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
            body: Body(r.body),
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
            body: Body(r.body),
        })
    }

    fn configure(&mut self, config: &dyn std::any::Any) -> gix::error::Result {
        self.0.configure(config)
    }

    fn redirected_base_url(&self) -> Option<String> {
        self.0.redirected_base_url()
    }
}

/// A response body whose every byte the watchdog is told of as it is
/// taken; after the watchdog has fired (a stall, the deadline, an
/// interrupt, a flooding greeting) it gives no more.
pub struct Body<R>(R);

impl<R: BufRead> Read for Body<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        super::watchdog::check()?;
        let n = self.0.read(buf)?;
        super::watchdog::received(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Body<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        super::watchdog::check()?;
        self.0.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.0.consume(amt);
        super::watchdog::received(amt);
    }
}
