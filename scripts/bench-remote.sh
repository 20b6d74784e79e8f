# SPDX-License-Identifier: GPL-3.0-or-later
# Remote audiobooks over loopback (issue 17), sourced by scripts/bench.sh: a private nginx (Debian's
# nginx-light, as the tests start it) serves build/bench/ on a free 127.0.0.1 port, and its access log
# (each request's Range header and the bytes nginx sent) counts what raudio fetched.
# Environment: RAUDIO_BENCH_REMOTE_RUNS (3) real-time plays, RAUDIO_BENCH_REMOTE_SECONDS (60) of each;
# RAUDIO_BENCH_REMOTE_SEEKS (101) timed seeks;
# RAUDIO_BENCH_FIRST_RUNS (20) first-buffer processes, as in the audio section.

REMOTE_NGINX_DIR="$WORK/nginx"
REMOTE_NGINX_PID=""
REMOTE_BASE=""
RAUDIO_BENCH_REMOTE_RUNS="${RAUDIO_BENCH_REMOTE_RUNS:-3}"
RAUDIO_BENCH_REMOTE_SECONDS="${RAUDIO_BENCH_REMOTE_SECONDS:-60}"

# remote_free_port: a TCP port free on 127.0.0.1 right now.
remote_free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# start_bench_nginx: nginx in the foreground of a background job (no daemon, no workers), over $WORK;
# sets REMOTE_BASE to its http://127.0.0.1:PORT. Stopped by stop_bench_nginx, and on exit.
start_bench_nginx() {
    local nginx attempt port wait
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    [[ -x "$nginx" ]] || return 1
    rm -rf "$REMOTE_NGINX_DIR" && mkdir -p "$REMOTE_NGINX_DIR/temp" || return 1
    trap 'stop_bench_nginx; stop_private_pulse' EXIT
    for attempt in 1 2 3; do
        port=$(remote_free_port) || return 1
        # $msec: when the request ended; $connection/$connection_requests: which kept-alive connection.
        cat >"$REMOTE_NGINX_DIR/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $REMOTE_NGINX_DIR/nginx.pid;
error_log $REMOTE_NGINX_DIR/error.log;
events { worker_connections 128; }
http {
    log_format bench '\$msec \$request_method \$uri \$status \$body_bytes_sent "\$http_range" \$connection \$connection_requests';
    access_log $REMOTE_NGINX_DIR/access.log bench;
    client_body_temp_path $REMOTE_NGINX_DIR/temp;
    proxy_temp_path $REMOTE_NGINX_DIR/temp;
    fastcgi_temp_path $REMOTE_NGINX_DIR/temp;
    uwsgi_temp_path $REMOTE_NGINX_DIR/temp;
    scgi_temp_path $REMOTE_NGINX_DIR/temp;
    types { audio/mpeg mp3; application/json json; }
    keepalive_requests 10000;
    server {
        listen 127.0.0.1:$port;
        root $WORK;
    }
}
CONF
        "$nginx" -p "$REMOTE_NGINX_DIR" -e "$REMOTE_NGINX_DIR/error.log" -c "$REMOTE_NGINX_DIR/nginx.conf" \
            >"$LOGS/nginx.out" 2>&1 </dev/null &
        REMOTE_NGINX_PID=$!
        for wait in $(seq 1 50); do
            kill -0 "$REMOTE_NGINX_PID" 2>/dev/null || break
            if curl -sf -o /dev/null "http://127.0.0.1:$port/$(basename "$BOOK_10H")/manifest.json"; then
                REMOTE_BASE="http://127.0.0.1:$port"
                return 0
            fi
            sleep 0.1
        done
        stop_bench_nginx
    done
    return 1
}

stop_bench_nginx() {
    [[ -n "$REMOTE_NGINX_PID" ]] || return 0
    kill "$REMOTE_NGINX_PID" 2>/dev/null
    local wait
    for wait in $(seq 1 30); do
        kill -0 "$REMOTE_NGINX_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$REMOTE_NGINX_PID" 2>/dev/null
    wait "$REMOTE_NGINX_PID" 2>/dev/null
    REMOTE_NGINX_PID=""
}

# remote_log_mark: the number of requests logged so far.
remote_log_mark() { wc -l <"$REMOTE_NGINX_DIR/access.log" 2>/dev/null || echo 0; }

# remote_log_since MARK OUT: the requests logged after MARK, into OUT (nginx logs a request when it
# ends; a moment's wait lets the last ones of a process that just exited in).
remote_log_since() {
    sleep 0.3
    tail -n +"$(($1 + 1))" "$REMOTE_NGINX_DIR/access.log" >"$2"
}

# remote_log_sum FILE: "REQUESTS BYTES" of a log extract.
remote_log_sum() { awk '{ n++; b += $5 } END { printf "%d %d\n", n, b }' "$1"; }

bench_remote() {
    section_begin "Remote audiobooks over loopback (issue 17)" \
        "A private nginx (nginx-light, \`daemon off\`, one process) on a free 127.0.0.1 port serves \`build/bench/\`: the 10-hour, 100-track book (8 kb/s mono MP3, with its manifest) and the 60-minute 128 kb/s MP3 of the audio section. Its access log (\`\$body_bytes_sent \"\$http_range\"\`, one line per request) counts the requests and bytes of each process. The same book from disk is measured in the same run, interleaved, where it compares. No disk cache for \`raudio-bench\`; each \`raudio play\` gets a fresh empty \`XDG_CACHE_HOME\` (a first listening, cold cache). Release build."
    local first_figure="process start to first buffer from the remote 10-hour book's manifest (AudioNavigator, null output)"
    local seek_figure="seek in a remote 60-minute MP3 (seek + first 4096-frame read, random frames), range requests per seek"
    local bytes_figure="bytes fetched to play the first ${RAUDIO_BENCH_REMOTE_SECONDS} s of the remote 10-hour book in real time"
    local rss_figure="peak RSS of that run (streaming the 10-hour book)"
    local first_target="≤ 150 ms" seek_target="median ≤ 50 ms, ≤ 2 range requests" bytes_target="≤ 2x that minute's bytes" rss_target="≤ 45 MB"
    local book_name manifest_url mp3_url
    book_name=$(basename "$BOOK_10H")
    local reason=""
    [[ -n "$(missing_tools curl sox lame)" ]] && reason="missing: $(missing_tools curl sox lame)"
    [[ -z "$reason" && ! -x "$BENCH" ]] && reason="raudio-bench not built at $(shown "$BENCH")"
    [[ -z "$reason" && ! -x "$TIME" ]] && reason="$TIME not installed (Debian package time)"
    [[ -z "$reason" ]] && { make_long_book "$BOOK_10H" "$LOGS/make-book.log" || reason="could not generate the book, see $(shown "$LOGS")/make-book.log"; }
    [[ -z "$reason" && -n "$(missing_tools espeak-ng soxi)" ]] && reason="missing: $(missing_tools espeak-ng soxi)"
    [[ -z "$reason" ]] && { make_long_mp3 || reason="could not generate the 60-minute MP3, see $(shown "$LOGS")/make-mp3.log"; }
    [[ -z "$reason" ]] && { start_bench_nginx || reason="nginx did not start (nginx-light, scripts/install-deps.sh), see $(shown "$REMOTE_NGINX_DIR")/error.log"; }
    manifest_url="${REMOTE_BASE:-http://127.0.0.1:PORT}/$book_name/manifest.json"
    mp3_url="${REMOTE_BASE:-http://127.0.0.1:PORT}/$(basename "$MP3_60")"
    if [[ -n "$reason" ]]; then
        not_measured "$first_figure" "$first_target" "$reason" "$(shown "$BENCH") first-buffer $manifest_url"
        not_measured "$seek_figure" "$seek_target" "$reason" "$(shown "$BENCH") seek-latency $mp3_url"
        not_measured "$bytes_figure" "$bytes_target" "$reason" "raudio play $manifest_url --output null --realtime --duration $RAUDIO_BENCH_REMOTE_SECONDS --no-mpris"
        not_measured "$rss_figure" "$rss_target" "$reason" "/usr/bin/time -v raudio play $manifest_url ..."
        stop_bench_nginx
        return 0
    fi
    say "nginx serving $(shown "$WORK") at $REMOTE_BASE"
    bench_remote_first_buffer "$first_figure" "$first_target" "$manifest_url"
    bench_remote_seek "$seek_figure" "$seek_target" "$mp3_url"
    bench_remote_play "$bytes_figure" "$bytes_target" "$rss_figure" "$rss_target" "$manifest_url"
    bench_remote_whole_book "$rss_target" "$manifest_url"
    stop_bench_nginx
    trap stop_private_pulse EXIT
    section_note "Ports differ from run to run; the commands show the one of this run. Raw outputs: \`build/bench/logs/remote-*\` (each process's extract of the access log in \`*.access\`: \`msec method uri status bytes \"range\" connection request-on-connection\`)."
}

# bench_remote_first_buffer FIGURE TARGET URL: as bench_first_buffer, the remote manifest and the same
# book from disk alternately, RAUDIO_BENCH_FIRST_RUNS (20) fresh processes each.
bench_remote_first_buffer() {
    local figure="$1" target="$2" url="$3" runs="${RAUDIO_BENCH_FIRST_RUNS:-20}"
    local command="$(quote "$(shown "$BENCH")" first-buffer "$url") (x $runs fresh processes, alternating with $(shown "$BOOK_10H")/manifest.json)"
    local run remote=() local_values=() requests=() bytes=() file mark
    for run in $(seq 1 "$runs"); do
        file="$LOGS/remote-first-buffer-$run.json"
        mark=$(remote_log_mark)
        if ! "$BENCH" first-buffer "$url" >"$file" 2>"$LOGS/remote-first-buffer.err"; then
            not_measured "$figure" "$target" "raudio-bench first-buffer failed: $(tail -1 "$LOGS/remote-first-buffer.err")" "$command"
            return 0
        fi
        remote_log_since "$mark" "$LOGS/remote-first-buffer-$run.access"
        remote+=("$(json_get "$file" ms)")
        read -r requests[run] bytes[run] < <(remote_log_sum "$LOGS/remote-first-buffer-$run.access")
        if ! "$BENCH" first-buffer "$BOOK_10H/manifest.json" >"$LOGS/remote-first-buffer-disk-$run.json" 2>"$LOGS/remote-first-buffer-disk.err"; then
            not_measured "$figure" "$target" "raudio-bench first-buffer (disk) failed: $(tail -1 "$LOGS/remote-first-buffer-disk.err")" "$command"
            return 0
        fi
        local_values+=("$(json_get "$LOGS/remote-first-buffer-disk-$run.json" ms)")
    done
    local median low high disk disk_low disk_high request_median byte_median
    read -r median low high < <(stats "${remote[@]}")
    read -r disk disk_low disk_high < <(stats "${local_values[@]}")
    read -r request_median _ _ < <(stats "${requests[@]}")
    read -r byte_median _ _ < <(stats "${bytes[@]}")
    row "$figure" "$target" \
        "$(calc "$median") ms ($(calc "$low")-$(calc "$high") ms, $runs processes; from disk in the same run $(calc "$disk") ms ($(calc "$disk_low")-$(calc "$disk_high"))); $request_median requests, $byte_median bytes per process (median); last run: main $(calc "$(json_get "$file" mainMs)") ms, open (manifest fetched) $(calc "$(json_get "$file" openMs)") ms, navigator $(calc "$(json_get "$file" navigatorMs)") ms, play() to first buffer $(calc "$(json_get "$file" playToFirstBufferMs)") ms" \
        "$(of_target "$median" 150): $(at_most "$median" 150)" "$command"
}

# bench_remote_seek FIGURE TARGET URL: raudio-bench seek-latency on the remote MP3, which builds the
# frame index first (one pass over the whole file), times the seeks, then checks exactness against a
# straight decode (a second whole pass). raudio-bench counts each timed seek's requests and bytes at
# its HTTP client; the access log, read over the seeks' wall-clock window, cross-checks the total.
bench_remote_seek() {
    local figure="$1" target="$2" url="$3" seeks="${RAUDIO_BENCH_REMOTE_SEEKS:-101}"
    local command="$(quote "$(shown "$BENCH")" seek-latency "$url" --repeat "$seeks")"
    local file="$LOGS/remote-seek.json" mark
    mark=$(remote_log_mark)
    if ! "$BENCH" seek-latency "$url" --repeat "$seeks" >"$file" 2>"$LOGS/remote-seek.err"; then
        not_measured "$figure" "$target" "raudio-bench seek-latency failed: $(tail -1 "$LOGS/remote-seek.err")" "$command"
        return 0
    fi
    remote_log_since "$mark" "$LOGS/remote-seek.access"
    local process_requests process_bytes window_requests window_bytes
    read -r process_requests process_bytes < <(remote_log_sum "$LOGS/remote-seek.access")
    read -r window_requests window_bytes < <(awk -v from="$(json_get "$file" seekWindowEpoch.0)" -v to="$(json_get "$file" seekWindowEpoch.1)" \
        '$1 >= from && $1 <= to + 0.001 { n++; b += $5 } END { printf "%d %d\n", n, b }' "$LOGS/remote-seek.access")
    local median exact requests_median requests_max requests_mean verdict
    median=$(json_get "$file" ms.median)
    exact=$(json_get "$file" sampleExact)
    requests_median=$(json_get "$file" requestsPerSeek.median)
    requests_max=$(json_get "$file" requestsPerSeek.max)
    requests_mean=$(calc "$(json_get "$file" requestsPerSeekMean)")
    # "At most 2 range requests": every seek, so the verdict takes the most any seek made.
    verdict=$(awk -v m="$median" -v r="$requests_max" -v e="$exact" 'BEGIN { print (m <= 50 && r <= 2 && e == "true") ? "met" : "not met" }')
    row "$figure" "$target" \
        "$(calc "$median") ms ($(calc "$(json_get "$file" ms.min)")-$(calc "$(json_get "$file" ms.max)") ms, $seeks seeks), with the frame index built first ($(calc "$(json_get "$file" indexMs)") ms: one pass over the whole $(calc "$(stat -c %s "$MP3_60") / 1e6") MB file; opening $(calc "$(json_get "$file" openMs)") ms); range requests per seek: median $requests_median, mean $requests_mean, max $requests_max; $(calc "$(json_get "$file" kilobytesPerSeek.median)") kB per seek (median; counted at raudio-bench's HTTP client from one seek's start to the next's; nginx logged $window_requests requests, $(calc "$window_bytes / 1e6") MB during the seeks, of $process_requests requests, $(calc "$process_bytes / 1e6") MB for the whole process); exact at $(( $(json_get "$file" exactChecked) - $(json_get "$file" exactMismatches) ))/$(json_get "$file" exactChecked) checked frames" \
        "$(of_target "$median" 50), at most $requests_max requests a seek: $verdict" "$command"
}

# bench_remote_play BYTES_FIGURE BYTES_TARGET RSS_FIGURE RSS_TARGET URL: raudio play of the first
# RAUDIO_BENCH_REMOTE_SECONDS of the book in real time to null, remote (cold cache) and from disk
# alternately, RAUDIO_BENCH_REMOTE_RUNS runs each: bytes nginx sent, peak RSS.
bench_remote_play() {
    local bytes_figure="$1" bytes_target="$2" rss_figure="$3" rss_target="$4" url="$5"
    local seconds="$RAUDIO_BENCH_REMOTE_SECONDS" runs="$RAUDIO_BENCH_REMOTE_RUNS"
    local args=(--output null --realtime --duration "$seconds" --no-mpris)
    local command="XDG_CACHE_HOME=(empty) $(quote /usr/bin/time -v "$(shown "$RAUDIO")" play "$url" "${args[@]}") (x $runs, alternating with $(shown "$BOOK_10H")/manifest.json)"
    # That minute's bytes: the first track's bytes per second (its size over its 360 s) times the seconds.
    local track="$BOOK_10H/track-001.mp3" minute
    minute=$(awk -v s="$(stat -c %s "$track")" -v d="$seconds" 'BEGIN { printf "%d", s / 360 * d }')
    local run mark cache fetched=() requests=() rss=() disk_rss=() manifest_bytes=() head_bytes=() other_bytes=() tracks=()
    for run in $(seq 1 "$runs"); do
        cache="$WORK/remote-cache-$run"
        rm -rf "$cache" && mkdir -p "$cache"
        mark=$(remote_log_mark)
        if ! XDG_CACHE_HOME="$cache" "$TIME" -v -o "$LOGS/remote-play-$run.time" "$RAUDIO" play "$url" "${args[@]}" \
            >"$LOGS/remote-play-$run.out" 2>"$LOGS/remote-play-$run.err" </dev/null; then
            not_measured "$bytes_figure" "$bytes_target" "raudio play failed, see $(shown "$LOGS")/remote-play-$run.err" "$command"
            not_measured "$rss_figure" "$rss_target" "raudio play failed" "$command"
            return 0
        fi
        remote_log_since "$mark" "$LOGS/remote-play-$run.access"
        rm -rf "$cache"
        local r b
        read -r r b < <(remote_log_sum "$LOGS/remote-play-$run.access")
        requests+=("$r")
        fetched+=("$b")
        rss+=("$(peak_rss_mb "$LOGS/remote-play-$run.time")")
        manifest_bytes+=("$(awk '$3 ~ /manifest\.json$/ { b += $5 } END { print b + 0 }' "$LOGS/remote-play-$run.access")")
        head_bytes+=("$(awk '$3 ~ /\.mp3$/ && $6 ~ /"bytes=0-/ { b += $5 } END { print b + 0 }' "$LOGS/remote-play-$run.access")")
        other_bytes+=("$(awk '$3 ~ /\.mp3$/ && $6 !~ /"bytes=0-/ { b += $5 } END { print b + 0 }' "$LOGS/remote-play-$run.access")")
        tracks+=("$(awk '$3 ~ /\.mp3$/ && !($3 in t) { t[$3] = 1; n++ } END { print n + 0 }' "$LOGS/remote-play-$run.access")")
        if ! "$TIME" -v -o "$LOGS/remote-play-disk-$run.time" "$RAUDIO" play "$BOOK_10H/manifest.json" "${args[@]}" \
            >"$LOGS/remote-play-disk-$run.out" 2>"$LOGS/remote-play-disk-$run.err" </dev/null; then
            not_measured "$rss_figure" "$rss_target" "raudio play from disk failed, see $(shown "$LOGS")/remote-play-disk-$run.err" "$command"
            return 0
        fi
        disk_rss+=("$(peak_rss_mb "$LOGS/remote-play-disk-$run.time")")
    done
    local median low high ratio request_median manifest head other track_count
    read -r median low high < <(stats "${fetched[@]}")
    read -r request_median _ _ < <(stats "${requests[@]}")
    read -r manifest _ _ < <(stats "${manifest_bytes[@]}")
    read -r head _ _ < <(stats "${head_bytes[@]}")
    read -r other _ _ < <(stats "${other_bytes[@]}")
    read -r track_count _ _ < <(stats "${tracks[@]}")
    ratio=$(calc "$median / $minute")
    row "$bytes_figure" "$bytes_target" \
        "$median bytes ($low-$high, $runs runs; cold cache), ${ratio}x the minute's $minute bytes (track-001.mp3 is $(stat -c %s "$track") bytes for 360 s, 8 kb/s); median split: manifest $manifest, tracks' first ranges (from byte 0) $head, other ranges $other; $request_median requests, $track_count track(s) touched" \
        "${ratio}x: $(at_most "$ratio" 2)" "$command"
    local disk disk_low disk_high
    read -r median low high < <(stats "${rss[@]}")
    read -r disk disk_low disk_high < <(stats "${disk_rss[@]}")
    row "$rss_figure" "$rss_target" \
        "$median MB ($low-$high MB, $runs runs); the same ${seconds} s from disk in the same run $disk MB ($disk_low-$disk_high)" \
        "$(of_target "$median" 45): $(at_most "$median" 45)" "$command"
}

# bench_remote_whole_book TARGET URL: the whole remote 10-hour book played to null as fast as it
# decodes (cold cache), against the same from disk, RAUDIO_BENCH_REMOTE_RUNS runs each: peak RSS, and
# the bytes fetched against the book's size.
bench_remote_whole_book() {
    local target="$1" url="$2" runs="$RAUDIO_BENCH_REMOTE_RUNS"
    local figure="peak RSS streaming the whole remote 10-hour book (100 tracks) to null, not in real time"
    local args=(--output null --no-mpris)
    local command="XDG_CACHE_HOME=(empty) $(quote /usr/bin/time -v "$(shown "$RAUDIO")" play "$url" "${args[@]}") (x $runs, alternating with $(shown "$BOOK_10H")/manifest.json)"
    local book_bytes
    book_bytes=$(cat "$BOOK_10H"/*.mp3 "$BOOK_10H/manifest.json" | wc -c)
    local run mark cache rss=() disk_rss=() fetched=() requests=() walls=() r b
    for run in $(seq 1 "$runs"); do
        cache="$WORK/remote-cache-whole-$run"
        rm -rf "$cache" && mkdir -p "$cache"
        mark=$(remote_log_mark)
        if ! XDG_CACHE_HOME="$cache" "$TIME" -v -o "$LOGS/remote-whole-$run.time" "$RAUDIO" play "$url" "${args[@]}" \
            >"$LOGS/remote-whole-$run.out" 2>"$LOGS/remote-whole-$run.err" </dev/null; then
            not_measured "$figure" "$target" "raudio play failed, see $(shown "$LOGS")/remote-whole-$run.err" "$command"
            return 0
        fi
        remote_log_since "$mark" "$LOGS/remote-whole-$run.access"
        rm -rf "$cache"
        read -r r b < <(remote_log_sum "$LOGS/remote-whole-$run.access")
        requests+=("$r")
        fetched+=("$b")
        rss+=("$(peak_rss_mb "$LOGS/remote-whole-$run.time")")
        walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$LOGS/remote-whole-$run.time")")
        if ! "$TIME" -v -o "$LOGS/remote-whole-disk-$run.time" "$RAUDIO" play "$BOOK_10H/manifest.json" "${args[@]}" \
            >"$LOGS/remote-whole-disk-$run.out" 2>"$LOGS/remote-whole-disk-$run.err" </dev/null; then
            not_measured "$figure" "$target" "raudio play from disk failed, see $(shown "$LOGS")/remote-whole-disk-$run.err" "$command"
            return 0
        fi
        disk_rss+=("$(peak_rss_mb "$LOGS/remote-whole-disk-$run.time")")
    done
    local median low high disk disk_low disk_high bytes_median request_median wall
    read -r median low high < <(stats "${rss[@]}")
    read -r disk disk_low disk_high < <(stats "${disk_rss[@]}")
    read -r bytes_median _ _ < <(stats "${fetched[@]}")
    read -r request_median _ _ < <(stats "${requests[@]}")
    read -r wall _ _ < <(stats "${walls[@]}")
    row "$figure" "$target" \
        "$median MB ($low-$high MB, $runs runs, $wall s each (median), cold cache); from disk in the same run $disk MB ($disk_low-$disk_high); $bytes_median bytes fetched in $request_median requests, $(awk -v f="$bytes_median" -v b="$book_bytes" 'BEGIN { printf "%.4f", f / b }')x the book's $book_bytes bytes" \
        "$(of_target "$median" 45): $(at_most "$median" 45)" "$command"
}
