// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// A real nginx (Debian's `nginx-light`) serving a folder of the test's own on 127.0.0.1 and a free
/// port, for the remote-publication tests.
///
/// Besides the files it has fixed places for faults: `/forbidden/…` answers 403, `/gone/…` 410,
/// `/redirect-loop.json` redirects to itself, `/to-port/PORT/PATH` to `http://127.0.0.1:PORT/PATH` (another
/// loopback service), and `/norange/…` serves the same files ignoring `Range`
/// (`max_ranges 0`, so every answer is a whole 200). `stop()` (also run by deinit) ends it.
public final class NginxServer: @unchecked Sendable {
    public static let executable = "/usr/sbin/nginx"

    /// Whether nginx can run here; in CI a missing nginx fails instead (see `Corpus.isCI`).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) || Corpus.isCI }
    public static let skipMessage: Comment = "nginx is not installed (scripts/install-deps.sh installs nginx-light)"

    public let port: UInt16
    /// The folder served at `/`.
    public let documentRoot: URL
    private let workFolder: URL
    private let process = Process()

    /// Whether it speaks HTTPS, with a self-signed certificate no CA vouches for (to test TLS failures).
    public let usesTLS: Bool

    /// Starts nginx on `port` (a free one by default) over `documentRoot` (an empty folder of its own by
    /// default, removed by `stop`; a given one is left in place, so a test can restart a server over it).
    /// With `selfSignedTLS`, it serves HTTPS with a certificate made by `openssl` for 127.0.0.1.
    public init(port: UInt16? = nil, documentRoot: URL? = nil, selfSignedTLS: Bool = false) throws {
        usesTLS = selfSignedTLS
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw LoopbackError(message: "\(Self.executable) is missing: install nginx-light (scripts/install-deps.sh)")
        }
        workFolder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-nginx-\(UUID().uuidString)")
        self.documentRoot = documentRoot ?? workFolder.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: self.documentRoot, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: workFolder.appendingPathComponent("temp"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workFolder.path)
        self.port = try port ?? LoopbackPort.free()
        let port = self.port
        let configuration = workFolder.appendingPathComponent("nginx.conf")
        if selfSignedTLS {
            let made = try Self.runQuietly("/usr/bin/openssl", [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-keyout", workFolder.appendingPathComponent("key.pem").path, "-out", workFolder.appendingPathComponent("cert.pem").path,
            ])
            guard made else { throw LoopbackError(message: "openssl could not make a self-signed certificate") }
        }
        try Self.configuration(port: port, root: self.documentRoot.path, work: workFolder.path, tls: selfSignedTLS).write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", configuration.path, "-p", workFolder.path, "-e", workFolder.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopbackPort.waitUntilListening(port: port, timeout: 10) else {
            stop()
            let log = (try? String(contentsOf: workFolder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw LoopbackError(message: "nginx did not start on port \(port): \(log)")
        }
    }

    deinit {
        stop()
    }

    /// The URL of `path` (no leading slash) on this server.
    public func url(_ path: String) -> String { "\(usesTLS ? "https" : "http")://127.0.0.1:\(port)/\(path)" }

    /// Copies `file` to `path` under the document root (folders made as needed).
    public func add(_ file: URL, as path: String) throws {
        let destination = documentRoot.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.copyItem(at: file, to: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination.path)
    }

    /// Writes `text` to `path` under the document root.
    public func write(_ text: String, as path: String) throws {
        let destination = documentRoot.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: destination, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination.path)
    }

    /// The requests nginx logged so far, one line each: `METHOD PATH STATUS BYTES RANGE`.
    public var accessLog: [String] {
        let text = (try? String(contentsOf: workFolder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx and removes its folder. Safe to call twice.
    ///
    /// SIGKILL, because a process started from a thread of Swift's pool inherits its blocked signals:
    /// nginx would not see SIGTERM. It keeps no state worth a graceful exit (one process, no workers).
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: workFolder)
    }

    static func configuration(port: UInt16, root: String, work: String, tls: Bool = false) -> String {
        let listen = tls
            ? "listen 127.0.0.1:\(port) ssl; ssl_certificate \(work)/cert.pem; ssl_certificate_key \(work)/key.pem;"
            : "listen 127.0.0.1:\(port);"
        return configurationText(listen: listen, root: root, work: work)
    }

    private static func configurationText(listen: String, root: String, work: String) -> String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(work)/nginx.pid;
        error_log \(work)/error.log;
        events { worker_connections 128; }
        http {
            log_format raudio '$request_method $uri $status $body_bytes_sent "$http_range" "$http_user_agent" c$connection r$connection_requests';
            access_log \(work)/access.log raudio;
            client_body_temp_path \(work)/temp;
            proxy_temp_path \(work)/temp;
            fastcgi_temp_path \(work)/temp;
            uwsgi_temp_path \(work)/temp;
            scgi_temp_path \(work)/temp;
            types { audio/mpeg mp3; audio/ogg ogg; application/json json; audio/mp4 m4a; }
            keepalive_requests 10000;
            server {
                \(listen)
                root \(root);
                location = /redirect-loop.json { return 302 /redirect-loop.json; }
                location ^~ /moved/ { rewrite ^/moved/(.*)$ /$1 redirect; }
                location ^~ /to-port/ { rewrite ^/to-port/([0-9]+)/(.*)$ http://127.0.0.1:$1/$2 redirect; }
                location ^~ /forbidden/ { return 403; }
                location ^~ /gone/ { return 410; }
                location ^~ /norange/ { max_ranges 0; alias \(root)/; }
            }
        }
        """
    }
}

extension NginxServer {
    /// Runs `executable` with `arguments`, output discarded; whether it exited 0.
    fileprivate static func runQuietly(_ executable: String, _ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
