//! The Cuprite module image: what `cuprite -ptx`, `-cubin`, `-fatbin` and NVRTC write,
//! and what `cuModuleLoad*` reads (docs/ARCHITECTURE.md, "Module images").
//!
//! An image is text, so that programs may treat it as PTX (a NUL-terminated string) or
//! read it from a file into a `std::string`:
//!
//! ```text
//! //CUPRITE-MODULE-IMAGE 1\n
//! <base64 of the body>\n
//! ```
//!
//! The body is a sequence of records `[tag: u8][len: u64 LE][bytes]`; readers skip tags
//! they do not know. The C source is the translation unit's device code as the CPU
//! back-end generated it (with the module's kernel and variable symbols defined), so the
//! runtime only needs a C compiler to load it; the IR (bincode of `cuprite_ir::Module`)
//! rides along for tools that want it (a future PTX back-end, linking).

pub mod cache;

use base64::Engine;

pub const HEADER: &str = "//CUPRITE-MODULE-IMAGE 1\n";

/// The first line of an image carried in the comment lines of a PTX module (what
/// `cuprite -ptx` writes): each following line `//<base64>` until [`PTX_TRAILER`], then
/// the PTX itself, so `ptxas` and the driver read the PTX and Cuprite's CPU device the image.
pub const PTX_HEADER: &str = "//CUPRITE-MODULE-IMAGE 2 (Cuprite's CPU device reads these comment lines; the PTX follows)\n";
pub const PTX_TRAILER: &str = "//END-CUPRITE-MODULE-IMAGE\n";
/// Base64 characters per comment line.
const PTX_LINE: usize = 120;

const TAG_ORIGIN: u8 = 1;
const TAG_ARCH: u8 = 2;
const TAG_C_SOURCE: u8 = 3;
const TAG_C_FLAGS: u8 = 4;
const TAG_IR: u8 = 5;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// The source file (or NVRTC program name) the image was compiled from.
    pub origin: String,
    /// The compute capability it was compiled for (`-arch`), e.g. 75.
    pub arch: u32,
    /// The device code as C, ready for the system C compiler.
    pub c_source: String,
    /// The flags the C must be compiled with (they keep CUDA's semantics).
    pub c_flags: Vec<String>,
    /// The device IR (bincode), opaque to the loader.
    pub ir: Vec<u8>,
}

/// Why bytes are not a Cuprite module image, in a sentence for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotAnImage {
    /// An NVIDIA ELF cubin.
    NvidiaCubin,
    /// An NVIDIA fat binary.
    NvidiaFatbin,
    /// NVIDIA PTX text.
    NvidiaPtx,
    /// A Cuprite image that is damaged or from an incompatible version.
    Damaged(String),
    /// Anything else.
    Unknown,
}

impl std::fmt::Display for NotAnImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotAnImage::NvidiaCubin => write!(f, "the image is an NVIDIA cubin (ELF): Cuprite runs device code it compiled itself; build the module with Cuprite (nvcc -cubin/-fatbin/-ptx from a Cuprite toolkit, or Cuprite's NVRTC)"),
            NotAnImage::NvidiaFatbin => write!(f, "the image is an NVIDIA fatbinary: Cuprite runs device code it compiled itself; build the module with Cuprite (nvcc -fatbin from a Cuprite toolkit, or Cuprite's NVRTC)"),
            NotAnImage::NvidiaPtx => write!(f, "the image is NVIDIA PTX (which cuModuleLoad* compile with the PTX front-end)"),
            NotAnImage::Damaged(why) => write!(f, "the Cuprite module image is damaged or from another version of Cuprite ({why}); rebuild it"),
            NotAnImage::Unknown => write!(f, "the data is not a module image Cuprite knows (a Cuprite -cubin/-fatbin/-ptx output or NVRTC result)"),
        }
    }
}

fn record(out: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
    out.push(tag);
    out.extend((bytes.len() as u64).to_le_bytes());
    out.extend(bytes);
}

impl Image {
    /// The image as text: the header line, the base64 body and a newline.
    pub fn encode(&self) -> String {
        let mut body = Vec::new();
        record(&mut body, TAG_ORIGIN, self.origin.as_bytes());
        record(&mut body, TAG_ARCH, self.arch.to_string().as_bytes());
        record(&mut body, TAG_C_SOURCE, self.c_source.as_bytes());
        record(&mut body, TAG_C_FLAGS, self.c_flags.join("\0").as_bytes());
        record(&mut body, TAG_IR, &self.ir);
        let mut s = String::from(HEADER);
        s.push_str(&base64::engine::general_purpose::STANDARD.encode(body));
        s.push('\n');
        s
    }

    /// The image in the comment lines of PTX text, followed by that text: a file that
    /// is PTX to NVIDIA's tools and a module image to Cuprite's loader.
    pub fn encode_with_ptx(&self, ptx: &str) -> String {
        let encoded = self.encode();
        let body = &encoded[HEADER.len()..].trim_end();
        let mut s = String::from(PTX_HEADER);
        for chunk in body.as_bytes().chunks(PTX_LINE) {
            s.push_str("//");
            s.push_str(std::str::from_utf8(chunk).expect("base64 is ASCII"));
            s.push('\n');
        }
        s.push_str(PTX_TRAILER);
        s.push_str(ptx);
        s
    }

    /// The PTX after an image made by [`Image::encode_with_ptx`], if `data` is one.
    pub fn ptx_text(data: &[u8]) -> Option<&str> {
        let text = std::str::from_utf8(data.split(|b| *b == 0).next()?).ok()?;
        if !text.starts_with(PTX_HEADER) {
            return None;
        }
        let at = text.find(PTX_TRAILER)?;
        Some(&text[at + PTX_TRAILER.len()..])
    }

    /// Reads an image from the start of `data` (which may run on past its end: a
    /// NUL-terminated string, or a file with more after it).
    pub fn decode(data: &[u8]) -> Result<Image, NotAnImage> {
        let joined;
        let b64: &[u8] = if data.starts_with(PTX_HEADER.as_bytes()) {
            // `//<base64>` lines up to the trailer.
            let mut all = Vec::new();
            let mut ended = false;
            for line in data[PTX_HEADER.len()..].split(|b| *b == b'\n') {
                if line == PTX_TRAILER.trim_end().as_bytes() {
                    ended = true;
                    break;
                }
                all.extend_from_slice(line.strip_prefix(b"//").ok_or_else(|| NotAnImage::Damaged("a line of the image is not a comment".into()))?);
            }
            if !ended {
                return Err(NotAnImage::Damaged("the image has no end line".into()));
            }
            joined = all;
            &joined
        } else if data.starts_with(HEADER.as_bytes()) {
            let rest = &data[HEADER.len()..];
            let end = rest.iter().position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))).unwrap_or(rest.len());
            &rest[..end]
        } else {
            return Err(classify(data));
        };
        let body = base64::engine::general_purpose::STANDARD.decode(b64).map_err(|e| NotAnImage::Damaged(e.to_string()))?;
        let mut img = Image::default();
        let mut at = 0usize;
        while at < body.len() {
            let damaged = || NotAnImage::Damaged("truncated record".into());
            let tag = body[at];
            let len = u64::from_le_bytes(body.get(at + 1..at + 9).ok_or_else(damaged)?.try_into().unwrap()) as usize;
            let bytes = body.get(at + 9..at + 9 + len).ok_or_else(damaged)?;
            let text = || String::from_utf8(bytes.to_vec()).map_err(|_| NotAnImage::Damaged("text record is not UTF-8".into()));
            match tag {
                TAG_ORIGIN => img.origin = text()?,
                TAG_ARCH => img.arch = text()?.parse().map_err(|_| NotAnImage::Damaged("bad arch".into()))?,
                TAG_C_SOURCE => img.c_source = text()?,
                TAG_C_FLAGS => img.c_flags = text()?.split('\0').filter(|s| !s.is_empty()).map(String::from).collect(),
                TAG_IR => img.ir = bytes.to_vec(),
                _ => {}
            }
            at += 9 + len;
        }
        if img.c_source.is_empty() {
            return Err(NotAnImage::Damaged("no device code".into()));
        }
        Ok(img)
    }
}

/// What kind of foreign image the bytes are, for the error message.
fn classify(data: &[u8]) -> NotAnImage {
    if data.starts_with(b"\x7fELF") {
        return NotAnImage::NvidiaCubin;
    }
    // The fatbinary header's magic (0xBA55ED50) and the fatbin wrapper's (0x466243B1).
    if data.starts_with(&0xBA55ED50u32.to_le_bytes()) || data.starts_with(&0x466243B1u32.to_le_bytes()) {
        return NotAnImage::NvidiaFatbin;
    }
    let head = String::from_utf8_lossy(&data[..data.len().min(4096)]);
    if head.contains(".version") && (head.contains(".target") || head.contains(".entry")) {
        return NotAnImage::NvidiaPtx;
    }
    NotAnImage::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_text_safe() {
        let img = Image {
            origin: "k.cu".into(),
            arch: 75,
            c_source: "int x;\n".into(),
            c_flags: vec!["-O3".into(), "-fPIC".into()],
            ir: vec![0, 1, 2, 255],
        };
        let text = img.encode();
        assert!(text.starts_with(HEADER));
        assert!(!text.contains('\0'));
        let mut with_nul = text.clone().into_bytes();
        with_nul.extend(b"\0garbage");
        assert_eq!(Image::decode(&with_nul).unwrap(), img);
    }

    #[test]
    fn image_in_ptx_comments_round_trips() {
        let img = Image { origin: "k.cu".into(), arch: 90, c_source: "int x;\n".repeat(50), c_flags: vec!["-O3".into()], ir: (0..=255).collect() };
        let ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
        let text = img.encode_with_ptx(ptx);
        // Every line before the PTX is a PTX comment.
        let (head, tail) = text.split_at(text.find(".version").unwrap());
        assert!(head.lines().all(|l| l.starts_with("//")));
        assert_eq!(tail, ptx);
        assert_eq!(Image::decode(text.as_bytes()).unwrap(), img);
        assert_eq!(Image::ptx_text(text.as_bytes()), Some(ptx));
        assert_eq!(Image::ptx_text(img.encode().as_bytes()), None);
        let cut = &text[..text.find(PTX_TRAILER).unwrap()];
        assert!(matches!(Image::decode(cut.as_bytes()), Err(NotAnImage::Damaged(_))));
    }

    #[test]
    fn foreign_images_are_named() {
        assert_eq!(Image::decode(b"\x7fELF\x02\x01"), Err(NotAnImage::NvidiaCubin));
        assert_eq!(Image::decode(&0xBA55ED50u32.to_le_bytes()), Err(NotAnImage::NvidiaFatbin));
        assert_eq!(Image::decode(b"//\n.version 8.8\n.target sm_90\n"), Err(NotAnImage::NvidiaPtx));
        assert_eq!(Image::decode(b"hello"), Err(NotAnImage::Unknown));
        assert!(matches!(Image::decode(b"//CUPRITE-MODULE-IMAGE 1\n!!!"), Err(NotAnImage::Damaged(_))));
    }
}
