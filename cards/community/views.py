"""Community pages: propose cards and corrections, review them, history, help
wanted, custom cards and whole-set imports."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect
from django.shortcuts import render as django_render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.http import require_POST

from .. import selectors as card_selectors
from ..choices import SetKind
from ..data import CardDataError
from ..games import GAMES
from ..models import (
    Card,
    CardDataImport,
    CardSet,
    CardSubmission,
    GameRecord,
    ReviewStatus,
    Scan,
)
from . import moderation, readings
from . import services as community
from . import transcribe as controls
from .collide_o_census import GAME as CENSUS_GAME
from .forms import (
    AcceptForm,
    CustomCardForm,
    CustomSetForm,
    DataImportForm,
    RejectForm,
    SubmissionForm,
)
from .services import field_label
from .trust import ReadingLimitReached, counts_toward_confirmation

PREVIEW_ROWS_SHOWN = 500


def render(request, template: str, context: dict, status: int = 200):
    """Render a community page; the navigation shows moderators their pages."""
    context["is_moderator"] = community.is_moderator(request.user)
    return django_render(request, template, context, status=status)


def _require_moderator(request) -> None:
    if not community.is_moderator(request.user):
        raise PermissionDenied("Only moderators can do this.")


def _game(slug: str) -> GameRecord:
    if slug not in GAMES:
        raise Http404("No such game.")
    return get_object_or_404(GameRecord, slug=slug)


# --- submissions ---------------------------------------------------------------


@login_required
def suggest(request, game, pk=None):
    """Propose a new card of ``game``, or (with ``pk``) a correction to a card."""
    card = None
    if pk is not None:
        card = get_object_or_404(card_selectors.visible_cards(request.user), pk=pk)
        game = card.card_set.game.slug
        if card.card_set.kind == SetKind.CUSTOM:
            if card.card_set.owner_id == request.user.pk:
                return redirect("community:custom-card-edit", pk=card.pk)
            raise Http404("Custom cards are changed by their owner.")
    game_row = _game(game)
    form = SubmissionForm(
        request.POST or None, request.FILES or None, game=game, card=card
    )
    if request.method == "POST" and form.is_valid():
        try:
            submission = community.card_submission_create(
                user=request.user,
                game=game,
                card=card,
                fields=form.proposal(),
                source=form.cleaned_data["source_note"],
                scan=form.cleaned_data.get("scan"),
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(
                request, "Thank you: your proposal waits for a moderator's review."
            )
            return redirect(submission.get_absolute_url())
    return render(
        request,
        "community/suggest.html",
        {"form": form, "card": card, "game": game_row},
    )


@login_required
def my_submissions(request):
    """List the signed-in user's proposals and their state."""
    submissions = community.visible_submissions(request.user).filter(
        submitter=request.user
    )
    page = Paginator(submissions, 50).get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    # The author's own cards as they read them.
    readings.cards_as_read(request.user, [s.card for s in page.object_list if s.card])
    return render(
        request,
        "community/submissions.html",
        {"page_obj": page, "title": "My proposals", "mine": True},
    )


@login_required
def review_queue(request):
    """List the proposals waiting for review (moderators only)."""
    _require_moderator(request)
    status = request.GET.get("status", ReviewStatus.PENDING)
    if status not in ReviewStatus.values:
        status = ReviewStatus.PENDING
    submissions = community.visible_submissions(request.user).filter(status=status)
    if status == ReviewStatus.PENDING:
        submissions = submissions.order_by("created_at", "pk")
    page = Paginator(submissions, 50).get_page(request.GET.get("page"))
    return render(
        request,
        "community/submissions.html",
        {
            "page_obj": page,
            "title": "Review queue",
            "status": status,
            "statuses": ReviewStatus.choices,
        },
    )


def _submission(request, pk):
    return get_object_or_404(community.visible_submissions(request.user), pk=pk)


@login_required
def submission_detail(request, pk):
    """Show one proposal, its field-by-field diff and (to moderators) the review."""
    submission = _submission(request, pk)
    return _render_submission(request, submission)


def _render_submission(request, submission, accept_form=None, reject_form=None):
    moderator = community.is_moderator(request.user)
    pending = submission.status == ReviewStatus.PENDING
    return render(
        request,
        "community/submission.html",
        {
            "submission": submission,
            "rows": community.submission_diff(submission=submission),
            "scans": submission.scans.all(),
            "can_review": moderator and pending,
            "accept_form": accept_form or AcceptForm(),
            "reject_form": reject_form or RejectForm(),
        },
    )


@login_required
@require_POST
def submission_accept(request, pk):
    """Accept a proposal: apply it atomically, once."""
    submission = _submission(request, pk)
    _require_moderator(request)
    form = AcceptForm(request.POST)
    if form.is_valid():
        try:
            card = community.card_submission_accept(
                submission=submission,
                moderator=request.user,
                verification=form.cleaned_data["verification"],
                note=form.cleaned_data["note"],
            )
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(submission.get_absolute_url())
        messages.success(request, f"Accepted: {card.display_name} is updated.")
        return redirect("community:review")
    return _render_submission(request, submission, accept_form=form)


@login_required
@require_POST
def submission_reject(request, pk):
    """Reject a proposal with a reason."""
    submission = _submission(request, pk)
    _require_moderator(request)
    form = RejectForm(request.POST)
    if form.is_valid():
        try:
            community.card_submission_reject(
                submission=submission,
                moderator=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(submission.get_absolute_url())
        messages.success(request, f"Rejected submission #{submission.pk}.")
        return redirect("community:review")
    return _render_submission(request, submission, reject_form=form)


SCAN_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}


def scan_image(request, pk, size="full"):
    """Serve a scan: accepted ones to anyone who sees the card, pending ones to
    their uploader and moderators."""
    scan = get_object_or_404(Scan.objects.select_related("card__card_set"), pk=pk)
    if scan.status == ReviewStatus.ACCEPTED and scan.card is not None:
        if not Card.objects.visible_to(request.user).filter(pk=scan.card_id).exists():
            raise Http404("No such scan.")
    elif not (
        request.user.is_authenticated
        and (
            scan.uploader_id == request.user.pk or community.is_moderator(request.user)
        )
    ):
        raise Http404("No such scan.")
    stored = scan.thumbnail if size == "thumb" else scan.image
    if not stored:
        raise Http404("This scan's picture was deleted.")
    try:
        handle = stored.open("rb")
    except OSError:
        raise Http404("This scan's picture is missing.") from None
    response = FileResponse(handle, content_type=SCAN_TYPES[scan.image_format])
    response["Cache-Control"] = "private, max-age=3600"
    return response


# --- transcribe: "I have this card" ----------------------------------------------


def _next_url(request) -> str:
    """Return the safe local page to go back to after saving (the playtest), or ""."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}
    ):
        return target
    return ""


# The session key holding the type and colour of the card read last, which the
# next card's page suggests.
LAST_READ = "transcribe_last"
# Controls a reader types into; the page starts in the first one left empty.
TYPED_KINDS = ("text", "notches", "number")


def _deck_id(request) -> str:
    """Return the deck the reader came from (the playtest's blocked cards), or ""."""
    value = request.POST.get("deck") or request.GET.get("deck") or ""
    # Digits only, and no longer than a database key can be.
    return value if value.isascii() and value.isdigit() and len(value) <= 18 else ""


def _walk_url(card, *, deck_id: str, back: str) -> str:
    """Return the transcribe page of ``card``, keeping the deck and the way back."""
    query = urlencode({k: v for k, v in (("deck", deck_id), ("next", back)) if v})
    url = reverse("community:transcribe", args=[card.pk])
    return f"{url}?{query}" if query else url


def _readable_card(request, pk) -> Card:
    card = get_object_or_404(card_selectors.visible_cards(request.user), pk=pk)
    if card.card_set.kind not in community.SUBMITTABLE_KINDS:
        raise Http404("Custom cards are changed by their owner.")
    return card


def _transcribe_page(
    request, card, *, card_type, values, errors, status=200, suggested=()
):
    reading = readings.own_reading(request.user, card)
    if values:
        built, problems = controls.preview_card(card=card, values=values)
        face = controls.face_data_uri(built)
    else:
        # Nothing entered yet: the card's own face, drawn once and cached.
        built, problems, face = card, {}, None
    spec = GAMES[card.card_set.game.slug]
    shown = controls.controls(
        card=card, card_type=card_type, values=values, errors=errors
    )
    names = {c["name"] for c in shown} | {"source", "scan"}
    focus = next(
        (c["name"] for c in shown if c["kind"] in TYPED_KINDS and c["value"] == ""),
        None,
    )
    deck_id = _deck_id(request)
    in_deck = controls.deck_cards(user=request.user, deck_id=deck_id)
    unknown = controls.still_unknown(user=request.user, cards=in_deck)
    # Errors of fields without a control here (a Blade's colour) are named above.
    general = [
        m if name in ("fields", "card", "__all__") else f"{field_label(name)}: {m}"
        for name, messages_ in errors.items()
        if name not in names
        for m in messages_
    ]
    return render(
        request,
        "community/transcribe.html",
        {
            "card": card,
            "built": built,
            "game": card.card_set.game,
            "spec": spec,
            "controls": shown,
            "errors": errors,
            "general_errors": general,
            "problems": {} if errors else problems,
            "face": face,
            "reading": reading,
            "next": _next_url(request),
            "focus": focus,
            "suggested": [
                f"{field_label(name).lower()} {values[name]}" for name in suggested
            ],
            "deck_id": deck_id if in_deck else "",
            "deck_cards": len(in_deck),
            "deck_unknown": len(unknown),
            "source_note": request.POST.get("source_note")
            or (reading.source if reading else readings.DEFAULT_SOURCE),
        },
        status=status,
    )


@login_required
def transcribe(request, pk):
    """Fill in what a card prints, with controls shaped like the card."""
    card = _readable_card(request, pk)
    if request.method != "POST":
        reading = readings.own_reading(request.user, card)
        values = dict(reading.fields) if reading else {}
        suggested = (
            {}
            if reading
            else controls.suggestion(card=card, last=request.session.get(LAST_READ))
        )
        values = {**suggested, **values}
        card_type = values.get("card_type", card.card_type)
        return _transcribe_page(
            request, card, card_type=card_type, values=values, errors={},
            suggested=tuple(suggested),
        )  # fmt: skip
    card_type, values, errors = controls.read_post(card=card, data=request.POST)
    if "retype" in request.POST:
        return _transcribe_page(
            request, card, card_type=card_type, values=values, errors={}
        )
    status = 400
    if not errors:
        try:
            readings.card_reading_save(
                user=request.user,
                card=card,
                fields=values,
                source=request.POST.get("source_note", ""),
                scan=request.FILES.get("scan"),
            )
        except ValidationError as error:
            errors = error.message_dict
        except ReadingLimitReached as limit:
            errors, status = {"fields": [limit.message]}, 429
    if errors:
        return _transcribe_page(
            request, card, card_type=card_type, values=values, errors=errors,
            status=status,
        )  # fmt: skip
    counts = counts_toward_confirmation(request.user)
    messages.success(
        request,
        f"Saved your reading of {card.display_name}: it works for you now"
        + (
            ", and counts towards confirming the card."
            if counts
            else "; it will count towards confirming cards once your account is "
            "established (see How readings count on the Community page)."
        ),
    )
    if "next_unknown" in request.POST:
        deck_id = _deck_id(request)
        in_deck = controls.deck_cards(user=request.user, deck_id=deck_id)
        following = controls.next_to_read(
            user=request.user, card=card, cards=in_deck or controls.set_cards(card)
        )
        if following is not None:
            # Only the card the walk opens next is offered this one's type.
            request.session[LAST_READ] = {
                **controls.remembered(card=card, values=values),
                "card": following.pk,
            }
            return redirect(
                _walk_url(
                    following,
                    deck_id=deck_id if in_deck else "",
                    back=_next_url(request),
                )
            )
        if in_deck:
            messages.info(request, "That was the last unknown card of your deck.")
            return redirect(
                _next_url(request) or reverse("decks:detail", args=[deck_id])
            )
        messages.info(request, "That was the last unknown card of this set.")
        return redirect(
            "community:help-wanted-set",
            game=card.card_set.game.slug,
            set=card.card_set.slug,
        )
    return redirect(_next_url(request) or card.get_absolute_url())


@login_required
@require_POST
def transcribe_preview(request, pk):
    """Return the drawn face for the values being entered (htmx partial)."""
    card = _readable_card(request, pk)
    card_type, values, errors = controls.read_post(card=card, data=request.POST)
    built, problems = controls.preview_card(card=card, values=values)
    problems = {**problems, **errors}
    return django_render(
        request,
        "community/_transcribe_face.html",
        {
            "built": built,
            "face": controls.face_data_uri(built),
            "problems": problems,
            "spec": GAMES[card.card_set.game.slug],
        },
    )


@login_required
@require_POST
def reading_withdraw(request, pk):
    """Withdraw the user's own pending reading of a card."""
    card = _readable_card(request, pk)
    reading = readings.reading_of(request.user, card)
    if reading is None:
        messages.info(request, "You have no reading of this card waiting.")
    else:
        readings.card_reading_withdraw(user=request.user, reading=reading)
        messages.success(request, "Withdrew your reading; the card reads as before.")
    return redirect(card.get_absolute_url())


@login_required
def disputes(request):
    """Show the disputed cards' readings side by side, with their scans (moderators)."""
    _require_moderator(request)
    return render(
        request,
        "community/disputes.html",
        {"disputes": readings.disputes(), "missing": readings.MISSING},
    )


def contributor(request, username):
    """List what one collector transcribed and where each reading stands."""
    # Looked up by name in the readings only: an unknown name and an account with
    # nothing visible answer the same page, so the page tells no one who exists.
    visible = card_selectors.visible_cards(request.user).values("pk")
    rows = (
        CardSubmission.objects.filter(submitter__username=username, card__in=visible)
        .select_related("card__card_set__game")
        .prefetch_related("field_verifications")
        .order_by("-created_at", "-pk")
    )
    page = Paginator(rows, 50).get_page(request.GET.get("page"))
    for reading in page:
        levels = {fv.level for fv in reading.field_verifications.all()}
        reading.agreement = (
            "disputed" if "disputed" in levels else "confirmed" if levels else ""
        )
    return render(
        request,
        "community/contributor.html",
        {"username": username, "page_obj": page},
    )


# --- accounts (moderators) -----------------------------------------------------


def _account(request, username):
    _require_moderator(request)
    return get_object_or_404(get_user_model(), username=username)


def _account_page(request, person, *, confirm: bool = False):
    return render(
        request,
        "community/account.html",
        {
            "person": person,
            "changes": moderation.account_changes(person),
            "confirm": confirm,
        },
    )


@login_required
def account(request, username):
    """Show every card change one account caused, with a roll-back button."""
    return _account_page(request, _account(request, username))


@login_required
@require_POST
def account_roll_back(request, username):
    """Ask to confirm, then roll back everything one account caused."""
    person = _account(request, username)
    if request.POST.get("confirm") != "yes":
        return _account_page(request, person, confirm=True)
    result = moderation.account_roll_back(moderator=request.user, account=person)
    messages.success(
        request,
        f"Rolled back {person.get_username()}: {len(result.restored)} fields "
        f"restored, {result.confirmations_removed} confirmations removed, "
        f"{result.rejected} waiting submissions rejected.",
    )
    for kept in result.kept:
        messages.warning(
            request, f"Kept {kept.card.display_name}, {kept.field}: {kept.reason}"
        )
    return redirect("community:account", username=person.get_username())


# --- history -------------------------------------------------------------------


def card_history(request, pk):
    """Show every recorded change of a card."""
    card = get_object_or_404(card_selectors.visible_cards(request.user), pk=pk)
    page = Paginator(community.card_history(card=card), 50).get_page(
        request.GET.get("page")
    )
    return render(request, "community/history.html", {"card": card, "page_obj": page})


# --- help wanted ---------------------------------------------------------------


def help_wanted_index(request):
    """List the games, linking to what is unknown or unverified in each."""
    return render(
        request, "community/help_wanted_index.html", {"games": GameRecord.objects.all()}
    )


def help_wanted(request, game, set=None):
    """Show unknown fields and unverified or disputed cards of a game or set."""
    game_row = _game(game)
    card_set = None
    if set is not None:
        card_set = get_object_or_404(
            CardSet.objects.exclude(kind=SetKind.CUSTOM), game=game_row, slug=set
        )
    include_practice = request.GET.get("practice") == "1" or (
        card_set is not None and card_set.kind == SetKind.PRACTICE
    )
    report = community.help_wanted(
        game=game_row, card_set=card_set, include_practice=include_practice
    )
    return render(
        request,
        "community/help_wanted.html",
        {
            "game": game_row,
            "card_set": card_set,
            "report": report,
            "include_practice": include_practice,
            "census_game": CENSUS_GAME,
        },
    )


# --- custom cards --------------------------------------------------------------


def _own_set(request, pk) -> CardSet:
    return get_object_or_404(
        CardSet.objects.select_related("game"),
        pk=pk,
        kind=SetKind.CUSTOM,
        owner=request.user,
    )


@login_required
def custom_sets(request):
    """List the user's custom sets and make a new one."""
    form = CustomSetForm(request.POST or None)
    game = request.POST.get("game") or request.GET.get("game") or ""
    if request.method == "POST" and form.is_valid():
        try:
            card_set = community.custom_set_create(
                user=request.user,
                game=game,
                name=form.cleaned_data["name"],
                is_public=form.cleaned_data["is_public"],
                notes=form.cleaned_data["notes"],
            )
        except ValidationError as error:
            for name, errors in error.message_dict.items():
                form.add_error(name if name in form.fields else None, errors)
        else:
            messages.success(request, f"Made the custom set {card_set.name}.")
            return redirect("community:custom-set", pk=card_set.pk)
    sets = card_selectors.custom_sets(request.user)
    return render(
        request,
        "community/custom_sets.html",
        {"form": form, "sets": sets, "games": GameRecord.objects.all(), "game": game},
    )


@login_required
def custom_set(request, pk):
    """Show one custom set of the user: its cards, settings and a new card form."""
    card_set = _own_set(request, pk)
    initial = {
        "name": card_set.name,
        "is_public": card_set.is_public,
        "notes": card_set.notes,
    }
    form = CustomSetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            community.custom_set_update(
                user=request.user,
                card_set=CardSet.objects.get(pk=card_set.pk),
                name=form.cleaned_data["name"],
                is_public=form.cleaned_data["is_public"],
                notes=form.cleaned_data["notes"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Saved the set.")
            return redirect("community:custom-set", pk=card_set.pk)
    return render(
        request,
        "community/custom_set.html",
        {"card_set": card_set, "form": form, "cards": card_set.cards.all()},
    )


@login_required
def custom_card_new(request, pk):
    """Add a card to one of the user's custom sets."""
    card_set = _own_set(request, pk)
    game = card_set.game.slug
    form = CustomCardForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        values = {
            k: v
            for k, v in form.card_values(changed_only=False).items()
            if v not in (None, "", [])
        }
        try:
            card = community.custom_card_create(
                user=request.user, card_set=card_set, fields=values
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, f"Added {card.display_name}.")
            return redirect(card.get_absolute_url())
    return render(
        request,
        "community/custom_card_form.html",
        {"form": form, "card_set": card_set, "card": None},
    )


@login_required
def custom_card_edit(request, pk):
    """Change or delete one of the user's custom cards."""
    card = get_object_or_404(
        card_selectors.custom_cards(request.user),
        pk=pk,
    )
    if request.method == "POST" and "delete" in request.POST:
        try:
            community.custom_card_delete(user=request.user, card=card)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("community:custom-card-edit", pk=card.pk)
        messages.success(request, f"Deleted {card.display_name}.")
        return redirect("community:custom-set", pk=card.card_set_id)
    form = CustomCardForm(request.POST or None, game=card.card_set.game.slug, card=card)
    if request.method == "POST" and form.is_valid():
        try:
            card = community.custom_card_update(
                user=request.user,
                card=card,
                fields=form.card_values(changed_only=True),
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, f"Saved {card.display_name}.")
            return redirect(card.get_absolute_url())
    return render(
        request,
        "community/custom_card_form.html",
        {"form": form, "card_set": card.card_set, "card": card},
    )


# --- whole-set imports ---------------------------------------------------------


@login_required
def data_import(request):
    """Upload a card data file (moderators); problems or a preview follow."""
    _require_moderator(request)
    form = DataImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        upload = request.FILES["file"]
        try:
            data_import = community.card_data_import_prepare(
                user=request.user,
                text=form.cleaned_data["file"],
                label=upload.name.rsplit("/", 1)[-1][:200],
            )
        except CardDataError as error:
            problems = [str(p) for p in error.problems]
        except ValidationError as error:
            problems = error.messages
        else:
            return redirect(data_import.get_absolute_url())
    return render(
        request, "community/import.html", {"form": form, "problems": problems[:200]}
    )


@login_required
def data_import_preview(request, token):
    """Show what a data file would change; apply it all or nothing on confirm."""
    _require_moderator(request)
    data_import = get_object_or_404(CardDataImport, token=token, user=request.user)
    if request.method == "POST":
        if "cancel" in request.POST:
            community.card_data_import_discard(
                data_import=data_import, user=request.user
            )
            messages.info(request, "The import was cancelled; nothing changed.")
            return redirect("community:import")
        try:
            result = community.card_data_import_apply(
                data_import=data_import, user=request.user
            )
        except (CardDataError, ValidationError) as error:
            for message in error.messages[:20]:
                messages.error(request, message)
            return redirect("community:import")
        messages.success(
            request,
            f"Imported: {result.created} new cards, {result.updated} changed, "
            f"{result.unchanged} unchanged; {result.sets_created} new sets.",
        )
        return redirect("community:import")
    problems = []
    try:
        changes = community.card_data_import_preview(data_import=data_import)
    except CardDataError as error:
        changes, problems = [], [str(p) for p in error.problems]
    new_cards = [c for c in changes if c.key is not None and c.created]
    changed_cards = [c for c in changes if c.key is not None and not c.created]
    set_changes = [c for c in changes if c.key is None]
    return render(
        request,
        "community/import_preview.html",
        {
            "data_import": data_import,
            "problems": problems,
            "set_changes": set_changes,
            "new_cards": new_cards[:PREVIEW_ROWS_SHOWN],
            "changed_cards": changed_cards[:PREVIEW_ROWS_SHOWN],
            "new_count": len(new_cards),
            "changed_count": len(changed_cards),
            "disputes": [d for c in changed_cards for d in c.disputes],
        },
    )
