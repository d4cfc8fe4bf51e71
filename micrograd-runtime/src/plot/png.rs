//! The shaded regions as a PNG (an 8-bit palette image, through the `png` crate), and base64
//! for the SVG's `data:` URL.

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
    let size = |n: usize| u32::try_from(n).expect("internal error: an image over 2³² pixels wide");
    let mut png = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut png, size(image.width), size(image.height));
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(image.palette.as_flattened());
    encoder.set_compression(::png::Compression::High);
    // Writing into a Vec cannot fail, and the header is valid by the assertion above.
    let written = encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(image.pixels));
    written.expect("internal error: the PNG encoder refused an indexed image");
    png
}

/// Standard base64 with padding (RFC 4648), for a `data:image/png;base64,` URL: twenty lines,
/// tested against the RFC's vectors, rather than a crate in the main job's build.
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
    fn a_png_decodes_to_its_palette_and_pixels() {
        let palette = [[255, 0, 0], [0, 0, 255], [10, 20, 30]];
        let (width, height) = (37, 5);
        let pixels: Vec<u8> = (0..width * height).map(|i| (i % 7 % 3) as u8).collect();
        let png = encode(&Indexed {
            width,
            height,
            palette: &palette,
            pixels: &pixels,
        });
        let decoder = ::png::Decoder::new(std::io::Cursor::new(&png));
        let mut reader = decoder.read_info().expect("a PNG");
        let info = reader.info();
        assert_eq!((info.width, info.height), (37, 5));
        assert_eq!(info.color_type, ::png::ColorType::Indexed);
        assert_eq!(info.palette.as_deref(), Some(palette.as_flattened()));
        let mut decoded = vec![0; reader.output_buffer_size().expect("a size")];
        reader.next_frame(&mut decoded).expect("a frame");
        assert_eq!(decoded, pixels);
    }
}
