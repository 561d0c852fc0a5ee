"""Card scans: check an uploaded image, re-encode it without metadata, store it.

Nothing a user uploads is kept as sent. The format is decided by the content
(magic bytes, then Pillow's own detection must agree), the byte count is checked
before anything is decoded, the dimensions the header declares before the pixels
are loaded, and the picture is re-encoded from its pixels alone (no EXIF, no
ICC, no comments) under a generated name. The user's file name is never used.
"""

import io
import uuid
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db.models import Sum
from PIL import Image, ImageOps

from ..models import ReviewStatus, Scan

MAX_BYTES = 5 * 1024 * 1024
# A card scanned at 600 dpi is about 1,500 x 2,100 pixels; these leave room for
# a margin and either orientation, and no more: decoding costs width x height x 4
# bytes, whatever the file's size.
MAX_SIDE_SHORT = 2_400
MAX_SIDE_LONG = 3_400
MAX_PIXELS = MAX_SIDE_SHORT * MAX_SIDE_LONG
LIMIT_TEXT = f"{MAX_SIDE_SHORT:,} x {MAX_SIDE_LONG:,} pixels"
MAX_PENDING_SCANS = 20
MAX_PENDING_BYTES = 50 * 1024 * 1024
THUMBNAIL_SIZE = (240, 336)
SCAN_DIR = "scans"

# Format name -> (magic bytes test, Pillow save options, file extension).
_MAGIC = {
    "PNG": lambda head: head.startswith(b"\x89PNG\r\n\x1a\n"),
    "JPEG": lambda head: head.startswith(b"\xff\xd8\xff"),
    "WEBP": lambda head: head[:4] == b"RIFF" and head[8:12] == b"WEBP",
}
_SAVE = {
    "PNG": ({"optimize": True}, "png"),
    "JPEG": ({"quality": 90}, "jpg"),
    "WEBP": ({"quality": 90}, "webp"),
}


@dataclass(frozen=True)
class CheckedScan:
    """A checked and re-encoded picture, ready to store."""

    image_format: str
    width: int
    height: int
    data: bytes
    thumbnail: bytes

    @property
    def extension(self) -> str:
        return _SAVE[self.image_format][1]


def _refuse(message: str, code: str) -> ValidationError:
    return ValidationError({"scan": message}, code=code)


def _sniff(head: bytes) -> str | None:
    for name, test in _MAGIC.items():
        if test(head):
            return name
    return None


def _clean_copy(image: Image.Image, image_format: str) -> Image.Image:
    # Turn the picture the way the camera meant, then keep only the pixels.
    # Each step makes one new image and drops the last, so at most two copies of
    # the pixels are alive at once.
    ImageOps.exif_transpose(image, in_place=True)
    has_alpha = image_format != "JPEG" and (
        image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    )
    mode = "RGBA" if has_alpha else "RGB"
    clean = image.convert(mode) if image.mode != mode else image.copy()
    clean.info = {}
    return clean


def _encode(image: Image.Image, image_format: str) -> bytes:
    options, _ = _SAVE[image_format]
    buffer = io.BytesIO()
    image.save(buffer, format=image_format, **options)
    return buffer.getvalue()


def scan_check(*, upload) -> CheckedScan:
    """Return the upload checked and re-encoded; raise ValidationError if refused."""
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_BYTES:
        raise _refuse(
            f"The image is {size / 1_048_576:.1f} MB; the limit is "
            f"{MAX_BYTES // 1_048_576} MB.",
            "too_large",
        )
    upload.seek(0)
    raw = upload.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise _refuse(
            f"The image is over the {MAX_BYTES // 1_048_576} MB limit.", "too_large"
        )
    claimed = _sniff(raw[:16])
    if claimed is None:
        raise _refuse(
            "This file is not a PNG, JPEG or WebP image (judged by its content, "
            "not its name).",
            "bad_format",
        )
    with warnings.catch_warnings():
        # A decompression-bomb warning is a refusal here, not a log line.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(raw), formats=list(_MAGIC)) as image:
                if image.format != claimed:
                    raise _refuse(
                        "The image's content does not match its format.",
                        "bad_format",
                    )
                width, height = image.size
                short, long = sorted((width, height))
                if short > MAX_SIDE_SHORT or long > MAX_SIDE_LONG:
                    raise _refuse(
                        f"The image is {width:,} x {height:,} pixels; the limit is "
                        f"{LIMIT_TEXT} (a card scanned at 600 dpi is about "
                        "1,500 x 2,100).",
                        "too_many_pixels",
                    )
                image.load()
                clean = _clean_copy(image, claimed)
        except ValidationError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise _refuse(
                f"The image has too many pixels; the limit is {LIMIT_TEXT}.",
                "too_many_pixels",
            ) from None
        except Exception:
            # Pillow reports truncated or corrupt data through many exception
            # types (OSError, SyntaxError, struct.error, ...): all mean unreadable.
            raise _refuse(
                "The image could not be read: it is damaged or incomplete.",
                "unreadable",
            ) from None
    thumb = clean.copy()
    thumb.thumbnail(THUMBNAIL_SIZE)
    return CheckedScan(
        image_format=claimed,
        width=clean.width,
        height=clean.height,
        data=_encode(clean, claimed),
        thumbnail=_encode(thumb, claimed),
    )


def scan_quota_check(*, user, adding_bytes: int = 0) -> None:
    """Refuse a new upload when ``user`` has too many scans waiting for review."""
    pending = Scan.objects.filter(uploader=user, status=ReviewStatus.PENDING)
    count = pending.count()
    if count >= MAX_PENDING_SCANS:
        raise _refuse(
            f"You have {count} scans waiting for review; the limit is "
            f"{MAX_PENDING_SCANS}. Upload more once some are reviewed.",
            "quota",
        )
    used = pending.aggregate(total=Sum("size_bytes"))["total"] or 0
    if used + adding_bytes > MAX_PENDING_BYTES:
        raise _refuse(
            f"Your scans waiting for review take {used / 1_048_576:.1f} MB; the "
            f"limit is {MAX_PENDING_BYTES // 1_048_576} MB.",
            "quota",
        )


def scan_write_files(*, checked: CheckedScan) -> tuple[str, str]:
    """Write the image and its thumbnail under a generated name; return both names."""
    stem = uuid.uuid4().hex
    image_name = f"{SCAN_DIR}/{stem}.{checked.extension}"
    thumb_name = f"{SCAN_DIR}/thumbs/{stem}.{checked.extension}"
    saved_image = default_storage.save(image_name, ContentFile(checked.data))
    try:
        saved_thumb = default_storage.save(thumb_name, ContentFile(checked.thumbnail))
    except Exception:
        default_storage.delete(saved_image)
        raise
    return saved_image, saved_thumb


def scan_delete_files(*, names) -> None:
    """Delete stored scan files (missing ones are fine)."""
    for name in names:
        if name:
            default_storage.delete(name)
