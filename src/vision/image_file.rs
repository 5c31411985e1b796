//! Opens a screenshot: the format is sniffed from the file's content, not
//! its name, and every failure says what is wrong in words (a folder given
//! as a file, an image too large, a file that is not an image).

use std::io::Cursor;
use std::path::Path;

use image::{ImageReader, RgbImage};

/// The largest image boardbot reads, in pixels: three 4K monitors side by
/// side fit with room to spare, and it keeps a decode under ~150 MB.
pub const MAX_PIXELS: u64 = 50_000_000;

#[derive(Debug, thiserror::Error)]
pub enum ImageFileError {
    /// Not a file (a folder, a device), too large a file, or unreadable.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("{path} is {kind}, not an image file: give the path of a screenshot")]
    NotAFile { path: String, kind: &'static str },
    #[error("cannot read the image {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read the image {path}: its content is not PNG ({what})")]
    Format { path: String, what: String },
    #[error(
        "cannot read the image {path}: it is {width}×{height} pixels ({pixels} in all), more than boardbot reads ({MAX_PIXELS} pixels); crop it to the board"
    )]
    TooLarge {
        path: String,
        width: u32,
        height: u32,
        pixels: u64,
    },
    #[error("cannot read the image {path}: it is damaged ({message})")]
    Decode { path: String, message: String },
}

/// Opens the image at `path` as RGB: a file of at most
/// [`crate::files::Limit::Image`] bytes, whose header says at most
/// [`MAX_PIXELS`] pixels before anything is decoded.
pub fn open(path: &Path) -> Result<RgbImage, ImageFileError> {
    let bytes =
        crate::files::read_bytes(path, crate::files::Limit::Image).map_err(|e| match e {
            crate::files::FileError::Read { path, source } => ImageFileError::Read { path, source },
            crate::files::FileError::NotAFile { path, kind, .. } => {
                ImageFileError::NotAFile { path, kind }
            }
            other => other.into(),
        })?;
    decode(&bytes, &path.display().to_string())
}

/// Decodes an image held in memory; `name` is used in messages.
pub fn decode(bytes: &[u8], name: &str) -> Result<RgbImage, ImageFileError> {
    let reader = |bytes| -> Result<ImageReader<Cursor<&[u8]>>, ImageFileError> {
        let r = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|source| ImageFileError::Read {
                path: name.to_string(),
                source,
            })?;
        if r.format().is_none() {
            return Err(ImageFileError::Format {
                path: name.to_string(),
                what: describe(bytes),
            });
        }
        Ok(r)
    };
    let decode_error = |e: image::ImageError| match e {
        image::ImageError::Unsupported(u) => ImageFileError::Format {
            path: name.to_string(),
            what: u.to_string(),
        },
        other => ImageFileError::Decode {
            path: name.to_string(),
            message: other.to_string(),
        },
    };
    let (width, height) = reader(bytes)?.into_dimensions().map_err(decode_error)?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(ImageFileError::TooLarge {
            path: name.to_string(),
            width,
            height,
            pixels,
        });
    }
    let mut r = reader(bytes)?;
    // Our own check above is the limit that matters; the decoder's default
    // would only fail later with a vaguer message.
    r.no_limits();
    Ok(r.decode().map_err(decode_error)?.to_rgb8())
}

/// A few words on what a file that is not an image seems to hold.
fn describe(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "the file is empty".into();
    }
    let head = &bytes[..bytes.len().min(64)];
    if std::str::from_utf8(head).is_ok_and(|s| !s.contains('\0')) {
        "it looks like text".into()
    } else {
        let hex: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
        format!("it starts with the bytes {}", hex.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = RgbImage::from_pixel(w, h, image::Rgb([1, 2, 3]));
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn reads_a_png_whatever_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("shot.jpg");
        std::fs::write(&p, png(5, 4)).unwrap();
        assert_eq!(open(&p).unwrap().dimensions(), (5, 4));
    }

    #[test]
    fn says_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let e = open(dir.path()).unwrap_err();
        assert!(matches!(e, ImageFileError::NotAFile { .. }), "{e}");
        assert!(
            e.to_string().contains("is a folder, not an image file"),
            "{e}"
        );
        let p = dir.path().join("notes.png");
        std::fs::write(&p, "hello").unwrap();
        let e = open(&p).unwrap_err().to_string();
        assert!(e.contains("looks like text"), "{e}");
        let e = open(&dir.path().join("absent.png"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read") && e.contains("absent.png"), "{e}");
    }

    /// PNG's chunk checksum.
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn refuses_a_huge_image_before_decoding_it() {
        // A PNG header that claims 20000 × 20000 pixels.
        let mut bytes = png(1, 1);
        bytes[16..20].copy_from_slice(&20_000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&20_000u32.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = decode(&bytes, "big.png").unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(e, ImageFileError::TooLarge { .. }) && text.contains("20000×20000"),
            "{text}"
        );
    }
}
