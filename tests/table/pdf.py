"""Read a PDF as a printer would: pages, page sizes, placed card faces, text."""

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

MM = 72 / 25.4  # points per millimetre


def pages(data: bytes) -> list[dict]:
    """Return, per page: size in mm, the placed images' boxes in mm, and the text."""
    pdf = pdfium.PdfDocument(data)
    result = []
    for page in pdf:
        width, height = page.get_size()
        boxes = []
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
            left, bottom, right, top = obj.get_bounds()
            boxes.append(
                (left / MM, bottom / MM, (right - left) / MM, (top - bottom) / MM)
            )
        text = page.get_textpage().get_text_range()
        result.append({"size": (width / MM, height / MM), "boxes": boxes, "text": text})
    return result


def render(data: bytes, page: int = 0, scale: float = 1.0):
    """Return one page as a Pillow image (``scale`` 1 is 72 dpi)."""
    pdf = pdfium.PdfDocument(data)
    return pdf[page].render(scale=scale).to_pil()
