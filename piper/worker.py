# SPDX-License-Identifier: GPL-3.0-or-later
"""raudio's Piper worker: one voice, loaded once, speaking one utterance per request.

raudio starts it as `python -u -S worker.py MODEL CONFIG` with the project's Piper virtual environment
(-S: without site's set-up, the worker adds the environment's packages itself) and talks to it over its
standard input and output:

- at start, one JSON line: {"ready": true, "sample_rate": 22050} once the voice is loaded, or
  {"error": "...", "file": "..."} (then the worker exits with status 65);
- each request is one JSON line {"text": "...", "speed": 1.0, "volume": 1.0, "first": 20}
  (speed divides the voice's length scale; volume multiplies the peak-normalized samples; "first",
  optional, asks for a short first piece of at most that many phonemes, so the first audio comes
  after one short inference), with "phonemes": [[start, end, "IPA"], ...] when parts of the text (code
  point offsets) are to be spoken as those IPA phonemes instead of phonemizing their letters;
- each answer comes piece by piece, as the model speaks them:
  first one JSON line {"groups": [sounds, ...]}: the phoneme groups between the phonemizer's word
  separators of the whole utterance, in order, with how many sounds each has (raudio maps them to the
  words of the text before any audio arrives); then for every piece one JSON line
  {"samples": N, "groups": G, "words": [[start, end], ...], "last": false} followed by N little-endian
  float32 samples (mono, at the voice's rate): the piece covers the next G groups, "words" gives their
  sample ranges counted from the utterance's first sample (empty when the model gives no durations);
  the last piece has "last": true. {"samples": 0, "error": "...", "last": true} (with or without the
  groups line before it) when this text cannot be spoken.

The model is patched once to output its phoneme durations (piper.patch_voice_with_alignment) and the
patched copy cached in $XDG_CACHE_HOME/raudio/piper, so later loads need neither onnx nor the patch;
beside it ONNX Runtime's optimized form of that model (ORT format, for this ONNX Runtime version and
CPU), which later loads map without optimizing the graph again. A cached file that does not load is
made again. Stderr is for people (raudio keeps its last lines for error messages).
"""

# Only what the start needs before ONNX Runtime starts loading (json, threading, pathlib and hashlib
# would add 15-20 ms there; json is imported once the model loads, the rest is not needed).
import _thread
import gc
import os
import sys
import zlib

if sys.flags.no_site:  # raudio starts the worker with -S (site's set-up costs a few ms): the venv's packages by hand
    _venv = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
    _packages = os.path.join(_venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
    if os.path.isfile(os.path.join(_venv, "pyvenv.cfg")) and os.path.isdir(_packages):
        sys.path.append(_packages)
    else:
        import site
        site.main()

# Sentences longer than this many phonemes are synthesized in pieces cut at word separators, after
# punctuation when that leaves a piece of at least half this length (else at the last word separator
# that fits): the model's memory grows with the length of what it speaks at once (peak RSS on Moby-Dick's
# first sentences: 219 MB with pieces of up to 70 phonemes, 196 MB with 50, for less CPU, not more).
MAX_PHONEMES = int(os.environ.get("RAUDIO_PIPER_MAX_PHONEMES", "50"))
# After a short first piece, each piece may be this many times the phonemes already sent (up to
# MAX_PHONEMES): the next piece is then ready before the audio already sent has played, at a real-time
# factor up to about 1 / GROWTH.
GROWTH = 1.5
PUNCTUATION = set(",;:.!?—–-)")
STRESS = set("ˈˌː")


def reply(header, payload=b""):
    import json

    out = sys.stdout.buffer
    out.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
    if payload:
        out.write(payload)
    out.flush()


def fail_startup(message, file):
    reply({"error": message, "file": str(file)})
    sys.exit(65)


def cache_directory():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "raudio", "piper")


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def file_key(path, *extra):
    """16 hex digits naming `path` as it is now (its real path, size and modification time) and `extra`."""
    stat = os.stat(path)
    identity = ":".join([os.path.realpath(path), str(stat.st_size), str(stat.st_mtime_ns), *extra]).encode()
    return "%08x%08x" % (zlib.crc32(identity), zlib.adler32(identity))


def cached_model_with_alignments(model_path):
    """The model with its duration output: the file itself when it has one, else a cached patched copy."""
    cached = os.path.join(cache_directory(), f"{stem(model_path)}-{file_key(model_path)}.onnx")
    if os.path.exists(cached):
        return cached
    import onnx  # only the first time a model is seen
    from piper.patch_voice_with_alignment import add_alignment_output

    model = onnx.load(model_path)
    try:
        add_alignment_output(model)
    except ValueError:
        return model_path  # already patched, or no duration tensor: spoken without word timing
    os.makedirs(os.path.dirname(cached), exist_ok=True)
    partial = cached[:-len(".onnx")] + ".partial"
    onnx.save(model, partial)
    os.replace(partial, cached)
    return cached


def cpu_signature():
    """What the optimized model depends on besides ONNX Runtime: the machine and its CPU's features."""
    flags = ""
    try:
        with open("/proc/cpuinfo", "r", encoding="utf-8", errors="replace") as file:
            flags = next((line for line in file if line.startswith(("flags", "Features"))), "")
    except OSError:
        pass
    return os.uname().machine + ":" + "%08x" % zlib.crc32(flags.encode())


def session_options(onnxruntime, level):
    options = onnxruntime.SessionOptions()
    # One inference on two cores (at most two: the others stay for raudio and the rest of the machine), for
    # the same memory as one. While they wait for each other the threads sleep (live playback: the worker
    # speaks ahead and then idles, and spinning took 75 % more CPU than one thread for the same audio, 10-30 %
    # more without it), or spin when raudio renders faster than real time (RAUDIO_PIPER_SPINNING=1: the
    # worker never idles; 120 s of Moby-Dick in about 13 % less time for about 2 % more CPU).
    options.intra_op_num_threads = int(os.environ.get("RAUDIO_PIPER_THREADS", str(min(2, len(os.sched_getaffinity(0))))))
    options.inter_op_num_threads = 1
    spinning = os.environ.get("RAUDIO_PIPER_SPINNING") == "1"
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    options.graph_optimization_level = level
    # ONNX Runtime's memory arena stays: without it glibc's heap fragments and the peak is higher (267 MB
    # against 219 MB on Moby-Dick's first sentences); with every tensor mmapped instead (a 128 KiB mmap
    # threshold) the peak is lower (197 MB) but synthesis takes 70 % more CPU. RAUDIO_PIPER_CPU_ARENA=0
    # turns it off (for measurements).
    options.enable_cpu_mem_arena = os.environ.get("RAUDIO_PIPER_CPU_ARENA") != "0"
    options.enable_mem_pattern = False
    return options


def open_session(onnxruntime, path, voice_name):
    """An ONNX Runtime session for `path`: from the cached optimized model when there is one that loads,
    else from `path` itself, optimizing it and caching the result for the next time."""
    levels = onnxruntime.GraphOptimizationLevel
    providers = ["CPUExecutionProvider"]
    if os.environ.get("RAUDIO_PIPER_ORT_CACHE") == "0":
        return onnxruntime.InferenceSession(path, sess_options=session_options(onnxruntime, levels.ORT_ENABLE_ALL), providers=providers)
    optimized = os.path.join(cache_directory(), f"{voice_name}-{file_key(path, onnxruntime.__version__, cpu_signature())}.ort")
    if os.path.exists(optimized):
        options = session_options(onnxruntime, levels.ORT_DISABLE_ALL)
        # The file is mapped, not read into memory, and the weights used where they are in it, not copied
        # into tensors: the session is made in about half the CPU time (no 60 MB copy, no page faults on
        # fresh memory). The cache is only ever replaced whole (os.replace), never rewritten in place.
        options.add_session_config_entry("session.use_memory_mapped_ort_model", "1")
        options.add_session_config_entry("session.use_ort_model_bytes_directly", "1")
        options.add_session_config_entry("session.use_ort_model_bytes_for_initializers", "1")
        try:
            return onnxruntime.InferenceSession(optimized, sess_options=options, providers=providers)
        except Exception as error:  # truncated or from elsewhere: made again below
            print(f"raudio: {optimized}: does not load ({error.__class__.__name__}: {error}); optimizing the model again", file=sys.stderr)
            try:
                os.unlink(optimized)
            except OSError:
                pass
    options = session_options(onnxruntime, levels.ORT_ENABLE_ALL)
    partial = f"{optimized[:-len('.ort')]}.{os.getpid()}.partial.ort"
    try:
        os.makedirs(os.path.dirname(optimized), exist_ok=True)
        writable = os.access(os.path.dirname(optimized), os.W_OK)
    except OSError:
        writable = False
    if writable:
        options.optimized_model_filepath = partial
        options.add_session_config_entry("session.save_model_format", "ORT")
        options.log_severity_level = 3  # not the warning that the optimized model is for this CPU only: it is cached for it
    try:
        session = onnxruntime.InferenceSession(path, sess_options=options, providers=providers)
    finally:
        if writable and os.path.exists(partial):
            try:
                os.replace(partial, optimized)
            except OSError:
                pass
    return session


def load_voice(model_path, config_path):
    """The voice, its ONNX Runtime session made on a thread of its own: ONNX Runtime releases the GIL while
    it loads the model, so meanwhile this thread imports piper, reads the config and warms the phonemizer
    (eSpeak NG loads its data on first use: now, not during the first utterance)."""
    loading = {}
    imported, loaded = _thread.allocate_lock(), _thread.allocate_lock()
    imported.acquire()
    loaded.acquire()

    def make_session():
        try:
            try:
                import onnxruntime
            finally:
                imported.release()
            path = cached_model_with_alignments(model_path)
            loading["session"] = open_session(onnxruntime, path, stem(model_path))
        except Exception as error:  # onnx's or ONNX Runtime's own errors for a truncated or foreign file
            loading["error"] = error
        finally:
            loaded.release()

    _thread.start_new_thread(make_session, ())
    imported.acquire()  # onnxruntime (and numpy) first: the session waits for them, the rest does not
    import json
    from piper import PiperVoice
    from piper.config import PiperConfig

    try:
        with open(config_path, "r", encoding="utf-8") as file:
            config = PiperConfig.from_dict(json.load(file))
    except (OSError, ValueError, KeyError, TypeError) as error:
        loaded.acquire()  # not exiting while ONNX Runtime is still loading on the other thread
        fail_startup(f"not a Piper voice config ({error.__class__.__name__}: {error})", config_path)
    try:
        PiperVoice(session=None, config=config).phonemize("a")
    except Exception:  # the first utterance will say what is wrong
        pass
    loaded.acquire()
    if "error" in loading:
        error = loading["error"]
        fail_startup(f"not an ONNX voice model ({error.__class__.__name__}: {error})", model_path)
    return PiperVoice(session=loading["session"], config=config)


def cut(phonemes, start, limit):
    """Where the piece starting at `start` ends: at most `limit` phonemes, at a word separator, after
    punctuation when that leaves at least half of `limit`."""
    end = start + limit
    spaces = [i for i in range(start + 1, min(end, len(phonemes) - 1) + 1) if phonemes[i] == " "]
    if not spaces:
        return end
    phrases = [i for i in spaces if phonemes[i - 1] in PUNCTUATION and i - start >= limit // 2]
    return (phrases or spaces)[-1]


def plan_pieces(sentences, first):
    """The utterance's sentences (lists of phonemes) cut into pieces, in order. With `first`, the first piece
    has at most `first` phonemes and each later one at most GROWTH times the phonemes before it."""
    result = []
    sent = 0
    for sentence in sentences:
        start = 0
        while start < len(sentence):
            limit = MAX_PHONEMES if not first else min(MAX_PHONEMES, max(first, int(sent * GROWTH)))
            remaining = len(sentence) - start
            if limit < remaining < 2 * limit:  # no short tail spoken on its own: two pieces of similar length
                limit = min(limit, max(limit // 2, (remaining + 1) // 2 + limit // 4))
            end = len(sentence) if remaining <= limit else cut(sentence, start, limit)
            piece = sentence[start:end]
            start = end + 1 if end < len(sentence) and sentence[end] == " " else end
            if piece:
                result.append(piece)
                sent += len(piece)
    return result


def groups_of(piece):
    """The phoneme groups between word separators of `piece`: (first phoneme, end, sounds), empty ones left out."""
    groups = []
    start, sounds = 0, 0
    for index, phoneme in enumerate(piece):
        if phoneme == " ":
            if sounds:
                groups.append((start, index, sounds))
            start, sounds = index + 1, 0
        elif phoneme not in PUNCTUATION and phoneme not in STRESS:
            sounds += 1
    if sounds:
        groups.append((start, len(piece), sounds))
    return groups


def speak_piece(voice, phonemes, syn_config, np):
    """Audio of one run of phonemes and the sample where each phoneme starts (plus the end), or None
    without alignments."""
    from piper.const import BOS, EOS, PAD

    ids = voice.phonemes_to_ids(phonemes)
    trace_ids(phonemes, ids)
    if os.environ.get("RAUDIO_PIPER_PHONEME_TRACE") and os.environ.get("RAUDIO_PIPER_PHONEME_TRACE_ONLY") == "1":
        return np.zeros(0, dtype=np.float32), None  # the trace without the inference (tests of phonemization)
    result = voice.phoneme_ids_to_audio(ids, syn_config, include_alignments=True)
    audio, id_samples = result if isinstance(result, tuple) else (result, None)
    audio = np.atleast_1d(audio).astype(np.float32)
    if id_samples is None or len(np.atleast_1d(id_samples)) != len(ids):
        return audio, None
    id_samples = np.atleast_1d(id_samples)
    id_map = voice.config.phoneme_id_map
    pad = id_map.get(PAD, [])
    starts = []
    index = 0
    position = 0
    for number, phoneme in enumerate([BOS] + list(phonemes) + [EOS]):
        width = len(id_map.get(phoneme, [])) + (len(pad) if phoneme != EOS else 0)
        if 0 < number <= len(phonemes) and phoneme not in id_map:
            width = 0  # dropped by phonemes_to_ids
        if number > 0:
            starts.append(position)
        position += int(id_samples[index:index + width].sum())
        index += width
    return audio, starts  # starts[i]: phoneme i; starts[-1]: the end of the last phoneme (EOS's start)


def phonemize(voice, text, spans):
    """The sentences of `text` as lists of phonemes: eSpeak NG's (piper's phonemizer) for the text, the given IPA
    phonemes for each span [start, end, ipa] (code point offsets into `text`), each span a word or words of its own."""
    if not spans:
        return [sentence for sentence in voice.phonemize(text) if sentence]
    import unicodedata

    sentences, current = [], []

    def separate():
        if current and current[-1] != " ":
            current.append(" ")

    def add_text(part):
        nonlocal current
        if not any(character.isalnum() for character in part):
            # Punctuation alone between two spans (", ", "-"): kept as the phonemizer keeps punctuation.
            marks = [character for character in part if character in PUNCTUATION]
            if marks and current:
                current.extend(marks)
            return
        phonemized = [sentence for sentence in voice.phonemize(part) if sentence]
        for number, sentence in enumerate(phonemized):
            if number > 0:
                sentences.append(current)
                current = []
            separate()
            current.extend(sentence)

    position = 0
    for start, end, ipa in sorted((int(a), int(b), str(c)) for a, b, c in spans):
        if start < position or end > len(text) or start >= end:
            continue
        add_text(text[position:start])
        separate()
        current.extend(unicodedata.normalize("NFD", " ".join(ipa.split())))  # as piper's phonemizer gives its own
        position = end
    add_text(text[position:])
    if current:
        sentences.append(current)
    return [[phoneme for index, phoneme in enumerate(sentence) if phoneme != " " or 0 < index < len(sentence) - 1] for sentence in sentences]


def trace_ids(phonemes, ids):
    """With RAUDIO_PIPER_PHONEME_TRACE set (tests, diagnostics): appends what the model is given, one JSON line per piece.
    With RAUDIO_PIPER_PHONEME_TRACE_ONLY=1 as well (alone it does nothing: no voice ever goes silent by it), the model is not run and each piece is silent and empty: what the
    model would be given, for tests of phonemization that need no audio."""
    path = os.environ.get("RAUDIO_PIPER_PHONEME_TRACE")
    if path:
        import json

        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps({"phonemes": "".join(phonemes), "ids": [int(i) for i in ids]}, ensure_ascii=False) + "\n")


def synthesize(voice, request, np):
    """Answers one request, piece by piece (see the protocol above)."""
    from piper.config import SynthesisConfig

    speed = float(request.get("speed", 1.0)) or 1.0
    syn_config = SynthesisConfig(length_scale=voice.config.length_scale / speed, normalize_audio=False)
    if os.environ.get("RAUDIO_PIPER_DETERMINISTIC") == "1":  # no noise: the same text gives the same samples (tests)
        syn_config.noise_scale = 0.0
        syn_config.noise_w_scale = 0.0
    volume = float(request.get("volume", 1.0))
    first = int(request.get("first") or 0)
    pieces = plan_pieces(phonemize(voice, request["text"], request.get("phonemes") or []), first)
    piece_groups = [groups_of(piece) for piece in pieces]
    reply({"groups": [sounds for groups in piece_groups for (_, _, sounds) in groups]})
    if not pieces:
        reply({"samples": 0, "groups": 0, "words": [], "last": True})
        return
    offset = 0
    for number, (piece, groups) in enumerate(zip(pieces, piece_groups)):
        audio, starts = speak_piece(voice, piece, syn_config, np)
        # Each piece peak-normalized on its own (piper normalizes each sentence), so it can go out at once.
        peak = float(np.max(np.abs(audio))) if len(audio) else 0.0
        gain = volume / peak if peak > 1e-8 else 0.0
        samples = np.clip(audio * gain, -1.0, 1.0).astype("<f4")
        words = [[offset + starts[first_phoneme], offset + starts[end]] for (first_phoneme, end, _) in groups] if starts else []
        reply({"samples": int(len(samples)), "groups": len(groups), "words": words, "last": number == len(pieces) - 1},
              samples.tobytes())
        offset += len(samples)


def main():
    if len(sys.argv) != 3:
        print("usage: worker.py MODEL.onnx MODEL.onnx.json", file=sys.stderr)
        return 64
    model_path, config_path = sys.argv[1], sys.argv[2]
    for path in (model_path, config_path):
        if not os.path.isfile(path):
            fail_startup("no such file", path)
    # numpy's OpenBLAS would start a thread per core at import; the worker does no linear algebra with it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.disable()  # nothing to collect while modules load: the garbage collector would only walk them
    voice = load_voice(model_path, config_path)
    gc.enable()
    import json
    import numpy as np

    reply({"ready": True, "sample_rate": voice.config.sample_rate})
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError as error:
            reply({"samples": 0, "words": [], "error": f"bad request ({error})", "last": True})
            continue
        try:
            synthesize(voice, request, np)
        except Exception as error:  # the phonemizer or the model refused this text: say so, keep serving
            reply({"samples": 0, "words": [], "error": f"{error.__class__.__name__}: {error}", "last": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
