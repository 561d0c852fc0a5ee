"""Uploaded scans: checked by content and size, re-encoded, stored under new names."""

import io
import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from cards.community import scans
from cards.community import services as community
from cards.models import CardSubmission, Scan
from tests.factories import make_png

URL = "/api/submissions/"


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _png_header_only(width: int, height: int) -> bytes:
    """Return a tiny PNG whose header claims ``width`` x ``height`` pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 16)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", idat)
        + _chunk(b"IEND", b"")
    )


def _jpeg_with_exif() -> bytes:
    image = Image.new("RGB", (64, 64), (10, 120, 200))
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x0131] = "secret-software"  # Software
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", exif=exif.tobytes(), quality=80)
    return buffer.getvalue()


def _post(client, gate, upload):
    return client.post(
        URL,
        {
            "card": str(gate.pk),
            "game": "bakugan",
            "fields": json.dumps({"bonus_aquos": 40}),
            "source": "my own copy, scanned",
            "scan": upload,
        },
    )


BAD_UPLOADS = [
    pytest.param(
        "bomb.png",
        _png_header_only(100_000, 100_000),
        "The image has too many pixels; the limit is 2,400 x 3,400 pixels.",
        id="header-claims-ten-gigapixels",
    ),
    pytest.param(
        "big.png",
        _png_header_only(6_000, 6_600),
        "The image is 6,000 x 6,600 pixels; the limit is 2,400 x 3,400 pixels (a "
        "card scanned at 600 dpi is about 1,500 x 2,100).",
        id="header-claims-40-megapixels",
    ),
    pytest.param(
        "long.png",
        _png_header_only(2_000, 3_500),
        "The image is 2,000 x 3,500 pixels; the limit is 2,400 x 3,400 pixels (a "
        "card scanned at 600 dpi is about 1,500 x 2,100).",
        id="long-side-too-long",
    ),
    pytest.param(
        "cut.jpg",
        _jpeg_with_exif()[:300],
        "The image could not be read: it is damaged or incomplete.",
        id="truncated-jpeg",
    ),
    pytest.param(
        "card.png",
        b"<!doctype html><html><script>alert(1)</script></html>",
        "This file is not a PNG, JPEG or WebP image (judged by its content, not "
        "its name).",
        id="html-named-png",
    ),
    pytest.param(
        "huge.png",
        b"\x89PNG\r\n\x1a\n" + b"\x00" * scans.MAX_BYTES,
        "The image is 5.0 MB; the limit is 5 MB.",
        id="oversize",
    ),
    pytest.param(
        "../../../etc/evil.png",
        b"GIF89a" + b"\x00" * 40,
        "This file is not a PNG, JPEG or WebP image (judged by its content, not "
        "its name).",
        id="path-traversal-name-gif",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("name, content, message", BAD_UPLOADS)
def test_bad_upload_is_refused_and_nothing_is_stored(
    client, user, gate, media_root, name, content, message
):
    client.force_login(user)

    response = _post(client, gate, SimpleUploadedFile(name, content))

    assert response.status_code == 400
    assert response.json() == {"scan": [message]}
    assert CardSubmission.objects.count() == 0
    assert Scan.objects.count() == 0
    assert not media_root.exists() or _files(media_root) == []


@pytest.mark.django_db
def test_path_traversal_name_does_not_matter(client, user, gate, media_root, tmp_path):
    client.force_login(user)

    response = _post(client, gate, SimpleUploadedFile("../../x.png", make_png()))

    assert response.status_code == 201
    scan = Scan.objects.get()
    stored = _files(media_root)
    assert stored == sorted([scan.image.name, scan.thumbnail.name])
    assert all(name.startswith("scans/") and "x.png" not in name for name in stored)
    assert len(Path(scan.image.name).stem) == 32  # a uuid, never the user's name
    assert not (tmp_path / "x.png").exists()
    assert response.json()["scans"] == [
        {"id": scan.pk, "status": "pending", "width": 40, "height": 56}
    ]


@pytest.mark.django_db
def test_scan_is_reencoded_without_metadata_and_thumbnailed(user, gate, media_root):
    upload = SimpleUploadedFile("photo.jpg", _jpeg_with_exif())
    assert b"SecretCam" in upload.read()

    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={},
        source="photo of my card",
        scan=upload,
    )

    scan = submission.scans.get()
    data = (media_root / scan.image.name).read_bytes()
    assert b"SecretCam" not in data and b"Exif" not in data
    with Image.open(media_root / scan.image.name) as image:
        assert (image.format, image.size) == ("JPEG", (64, 64))
        assert dict(image.getexif()) == {}
    with Image.open(media_root / scan.thumbnail.name) as thumb:
        assert thumb.size == (64, 64)
    assert (scan.image_format, scan.status, scan.size_bytes) == (
        "JPEG",
        "pending",
        len(data),
    )


@pytest.mark.django_db
def test_scan_reaches_the_card_only_once_accepted(user, moderator, gate, media_root):
    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={},
        source="scan",
        scan=SimpleUploadedFile("s.png", make_png()),
    )
    assert gate.accepted_scan is None

    community.card_submission_accept(submission=submission, moderator=moderator)

    assert gate.accepted_scan == submission.scans.get()


@pytest.mark.django_db
def test_rejected_scan_files_are_deleted(
    user, moderator, gate, media_root, django_capture_on_commit_callbacks
):
    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={},
        source="scan",
        scan=SimpleUploadedFile("s.png", make_png()),
    )
    assert len(_files(media_root)) == 2

    with django_capture_on_commit_callbacks(execute=True):
        community.card_submission_reject(
            submission=submission, moderator=moderator, reason="Blurry."
        )

    assert _files(media_root) == []
    assert gate.accepted_scan is None


@pytest.mark.django_db
def test_pending_scan_quota(user, gate, media_root, monkeypatch):
    monkeypatch.setattr(scans, "MAX_PENDING_SCANS", 1)
    community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={},
        source="scan",
        scan=SimpleUploadedFile("a.png", make_png()),
    )

    with pytest.raises(Exception) as info:
        community.card_submission_create(
            user=user,
            game="bakugan",
            card=gate,
            fields={},
            source="scan",
            scan=SimpleUploadedFile("b.png", make_png(colour=(0, 0, 0))),
        )

    assert info.value.message_dict == {
        "scan": [
            "You have 1 scans waiting for review; the limit is 1. Upload more once "
            "some are reviewed."
        ]
    }
    assert Scan.objects.count() == 1
    assert len(_files(media_root)) == 2


@pytest.mark.django_db
def test_card_picture_is_the_accepted_scan(client, user, moderator, gate, media_root):
    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={},
        source="scan",
        scan=SimpleUploadedFile("s.png", make_png(colour=(200, 30, 30))),
    )
    community.card_submission_accept(submission=submission, moderator=moderator)

    response = client.get(f"/cards/{gate.pk}/image.png")

    picture = Image.open(io.BytesIO(b"".join(response.streaming_content)))
    assert picture.convert("RGB").getpixel((5, 5)) == (200, 30, 30)


def _png_one_bit(width: int, height: int) -> bytes:
    """Return a real, fully decodable white 1-bit PNG: a few KB for many pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    # White, so the decoded pages are written (calloc'ed zeros would not be).
    row = b"\x00" + b"\xff" * ((width + 7) // 8)
    idat = zlib.compress(row * height, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", idat)
        + _chunk(b"IEND", b"")
    )


def _grey_jpeg(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (width, height), 128).save(buffer, format="JPEG", quality=20)
    return buffer.getvalue()


# Checks one upload in a fresh interpreter and prints how far the peak resident
# memory rose over the check (Pillow's pixel buffers are not seen by tracemalloc).
_PEAK_SCRIPT = """
import resource, sys
import django
django.setup()
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from cards.community import scans
data = open(sys.argv[1], "rb").read()
upload = SimpleUploadedFile("scan", data)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    scans.scan_check(upload=upload)
    outcome = "accepted"
except ValidationError as error:
    outcome = error.message_dict["scan"][0]
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) // 1024)
print(outcome)
"""


def _peak_mb(tmp_path, data: bytes) -> tuple[int, str]:
    path = tmp_path / "upload"
    path.write_bytes(data)
    result = subprocess.run(
        [sys.executable, "-c", _PEAK_SCRIPT, str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardsite.settings"},
        cwd=Path(__file__).resolve().parents[2],
    )
    peak, outcome = result.stdout.strip().splitlines()
    return int(peak), outcome


REFUSED_BY_SIZE = (
    "The image is 6,000 x 6,600 pixels; the limit is 2,400 x 3,400 pixels (a card "
    "scanned at 600 dpi is about 1,500 x 2,100)."
)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: _png_one_bit(6_000, 6_600), id="5-kb-png"),
        pytest.param(lambda: _grey_jpeg(6_000, 6_600), id="half-mb-jpeg"),
    ],
)
def test_a_hostile_upload_is_refused_before_it_costs_memory(tmp_path, make):
    # Decoding either of these (under the old 40-megapixel limit) peaked at
    # 465 MB and 580 MB.
    data = make()
    assert len(data) < 1_000_000

    peak, outcome = _peak_mb(tmp_path, data)

    assert outcome == REFUSED_BY_SIZE
    assert peak < 50


def test_the_largest_allowed_scan_costs_bounded_memory(tmp_path):
    peak, outcome = _peak_mb(
        tmp_path, _png_one_bit(scans.MAX_SIDE_SHORT, scans.MAX_SIDE_LONG)
    )

    assert outcome == "accepted"
    # Decoded (1 byte a pixel) and converted to RGB (3): 33 MB of pixels.
    assert peak < 80


@pytest.mark.django_db
def test_the_quota_is_checked_before_the_upload_is_decoded(
    user, gate, media_root, monkeypatch
):
    monkeypatch.setattr(scans, "MAX_PENDING_SCANS", 0)

    with pytest.raises(ValidationError) as info:
        community.card_submission_create(
            user=user,
            game="bakugan",
            card=gate,
            fields={},
            source="scan",
            scan=SimpleUploadedFile("cut.jpg", _jpeg_with_exif()[:300]),
        )

    assert info.value.message_dict == {
        "scan": [
            "You have 0 scans waiting for review; the limit is 0. Upload more once "
            "some are reviewed."
        ]
    }
    assert Scan.objects.count() == 0
