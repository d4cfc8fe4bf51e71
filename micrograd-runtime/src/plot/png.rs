//! A minimal PNG writer for the shaded regions: 8-bit palette images, stored (uncompressed)
//! zlib blocks, and base64 for a `data:` URL. The image is small and the SVG embeds it once, so
//! compression would buy little for the code it costs.

/// The eight bytes every PNG starts with.
const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
/// The largest block zlib's stored mode takes.
const STORED_BLOCK: usize = 65_535;

/// An image of `width` x `height` palette indices, row by row from the top.
pub(crate) struct Indexed<'a> {
    pub width: usize,
    pub height: usize,
    pub palette: &'a [[u8; 3]],
    pub pixels: &'a [u8],
}

/// The PNG file of `image` (colour type 3: one byte per pixel into the palette).
pub(crate) fn encode(image: &Indexed<'_>) -> Vec<u8> {
    assert!(
        image.pixels.len() == image.width * image.height && image.palette.len() <= 256,
        "internal error: {} pixels for {} x {}, {} colours",
        image.pixels.len(),
        image.width,
        image.height,
        image.palette.len()
    );
    let mut header = Vec::with_capacity(13);
    header.extend((image.width as u32).to_be_bytes());
    header.extend((image.height as u32).to_be_bytes());
    // Bit depth 8, colour type 3 (palette), deflate, filter method 0, no interlace.
    header.extend([8, 3, 0, 0, 0]);
    // Each row starts with its filter type, 0 (none).
    let mut raw = Vec::with_capacity((image.width + 1) * image.height);
    for row in image.pixels.chunks(image.width.max(1)) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut png = SIGNATURE.to_vec();
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"PLTE", image.palette.as_flattened());
    chunk(&mut png, b"IDAT", &zlib_stored(&raw));
    chunk(&mut png, b"IEND", &[]);
    png
}

/// One chunk: length, type, data, and the CRC of type and data.
fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend((data.len() as u32).to_be_bytes());
    let start = png.len();
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let crc = crc32(&png[start..]);
    png.extend(crc.to_be_bytes());
}

/// A zlib stream of stored deflate blocks (RFC 1950 and 1951, block type 0).
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    // CMF: deflate with a 32K window; FLG: no dictionary, check bits making CMF·256+FLG ≡ 0 mod 31.
    let mut out = vec![0x78, 0x01];
    let blocks = data.chunks(STORED_BLOCK);
    let count = blocks.len().max(1);
    if data.is_empty() {
        out.extend([1, 0, 0, 0xff, 0xff]);
    }
    for (i, block) in blocks.enumerate() {
        out.push(u8::from(i + 1 == count));
        let len = block.len() as u16;
        out.extend(len.to_le_bytes());
        out.extend((!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend(adler32(data).to_be_bytes());
    out
}

/// CRC-32 as PNG defines it (polynomial 0xEDB88320, reflected), bit by bit: the image is small.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xedb8_8320 & mask);
        }
    }
    !crc
}

/// zlib's checksum (RFC 1950).
fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in bytes {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

/// Standard base64 with padding (RFC 4648), for a `data:image/png;base64,` URL.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_match_their_published_check_values() {
        // The CRC catalogue's check value of CRC-32 ("123456789") and Wikipedia's Adler-32 example.
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

    #[test]
    fn base64_matches_rfc_4648_test_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn a_png_is_framed_as_the_format_requires() {
        let palette = [[255, 0, 0], [0, 0, 255]];
        let pixels = [0, 1, 1, 0, 0, 1];
        let png = encode(&Indexed {
            width: 3,
            height: 2,
            palette: &palette,
            pixels: &pixels,
        });
        assert_eq!(png[..8], SIGNATURE);
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(png[16..24], [0, 0, 0, 3, 0, 0, 0, 2]);
        assert_eq!(&png[png.len() - 8..png.len() - 4], b"IEND");
        // IEND's CRC is the well-known AE 42 60 82.
        assert_eq!(png[png.len() - 4..], [0xae, 0x42, 0x60, 0x82]);
    }
}
