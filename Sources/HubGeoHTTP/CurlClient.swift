import CCurl
import Foundation
import HubGeoModel

/// A small blocking HTTP GET client on libcurl.
///
/// One client owns one libcurl easy handle and reuses it, so consecutive
/// requests to the same host share one kept-alive connection (at most one
/// connection is cached). Redirects are followed up to
/// ``CurlClientConfiguration/maxRedirects``, only `http` and `https` are ever
/// used, bodies are capped at ``CurlClientConfiguration/maxBodyBytes``, and TLS
/// verification is always on.
///
/// **Not thread-safe, by design:** a libcurl easy handle must not be used by two
/// threads at once. Use a client from one thread or one isolation domain (for
/// example, own it in an actor), or create one client per task. It is therefore
/// deliberately not `Sendable`.
package final class CurlClient {
    /// The settings this client was created with.
    package let configuration: CurlClientConfiguration

    private let handle: CurlEasyHandle?
    /// Why the handle could not be set up; every request then fails with it.
    private let setupError: String?

    /// Creates a client and its libcurl handle; the first client of a process loads libcurl.so.4.
    /// Should libcurl be missing or fail to initialize, the client still exists but every
    /// request throws ``FetchError/failed(_:_:)`` with the reason.
    package init(configuration: CurlClientConfiguration) {
        self.configuration = configuration
        let handle: CurlEasyHandle
        do {
            handle = try CurlEasyHandle()
        } catch {
            self.handle = nil
            self.setupError = error.reason
            return
        }
        self.handle = handle
        self.setupError = Self.configure(handle, with: configuration)
    }

    /// Fetches `url` with GET and returns the final response, whatever its status.
    ///
    /// - Parameter headers: extra request headers, sent in order. An empty value
    ///   sends the header with an empty value. A `User-Agent` here overrides the
    ///   configured one.
    /// - Parameter beforeFollowUp: asked just before each further request this fetch makes after
    ///   the first: a redirect, or libcurl's resend on a fresh connection when a kept-alive one
    ///   turned out closed. It may block (to pace requests), but that time counts toward
    ///   ``CurlClientConfiguration/totalTimeout``; returning false stops the fetch with
    ///   ``FetchError/failed(_:_:)``.
    /// - Throws: ``FetchError`` when there is no complete response: a non-http(s)
    ///   URL (rejected before anything is sent), timeout, connection failure,
    ///   oversized body, redirect loop, broken transfer or TLS failure; and
    ///   ``FetchError/interrupted(_:)`` once the process is interrupted (``Interruption``):
    ///   no request goes out after that, and the transfer in flight is aborted.
    package func get(_ url: URL, headers: [(String, String)] = [],
                    beforeFollowUp: (() -> Bool)? = nil) throws(FetchError) -> FetchedResponse {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .unsupportedScheme(url)
        }
        guard let handle, setupError == nil else {
            throw .failed(url, setupError ?? "libcurl could not be initialized")
        }
        guard !Interruption.isRequested else { throw .interrupted(url) }
        // Like every header value: a control character could end the line and start another header.
        guard Self.isValidHeader(name: "User-Agent", value: configuration.userAgent) else {
            throw .invalidHeader(url, name: "User-Agent")
        }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { if let headerList { hubgeo_curl_slist_free_all(headerList) } }
        for (name, value) in headers {
            guard Self.isValidHeader(name: name, value: value) else {
                throw .invalidHeader(url, name: name)
            }
            // "Name:" would make libcurl drop the header; "Name;" sends it empty.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            guard let appended = hubgeo_curl_slist_append(headerList, line) else {
                throw .failed(url, "out of memory building request headers")
            }
            headerList = appended
        }

        let transfer = CurlTransfer(maxBodyBytes: configuration.maxBodyBytes, handle: handle, beforeFollowUp: beforeFollowUp)
        let userdata = Unmanaged.passUnretained(transfer).toOpaque()
        handle.set(CURLOPT_URL, url.absoluteString)
        handle.set(CURLOPT_HTTPGET, 1)
        handle.set(CURLOPT_HTTPHEADER, list: headerList)
        handle.set(CURLOPT_WRITEDATA, pointer: userdata)
        handle.set(CURLOPT_HEADERDATA, pointer: userdata)
        handle.set(CURLOPT_PREREQDATA, pointer: userdata)
        let code = withExtendedLifetime(transfer) { handle.perform() }
        // Drop per-request pointers so the handle never refers to freed memory.
        handle.set(CURLOPT_HTTPHEADER, list: nil)
        handle.set(CURLOPT_WRITEDATA, pointer: nil)
        handle.set(CURLOPT_HEADERDATA, pointer: nil)
        handle.set(CURLOPT_PREREQDATA, pointer: nil)

        guard code == CURLE_OK else {
            // Whatever the transfer's end looked like (aborted by a callback, a wait cut short).
            if Interruption.isRequested { throw .interrupted(url) }
            throw error(for: code, url: url, transfer: transfer, handle: handle)
        }
        let status = handle.infoInt(CURLINFO_RESPONSE_CODE) ?? 0
        let finalURL = handle.infoString(CURLINFO_EFFECTIVE_URL).flatMap { URL(string: $0) } ?? url
        return FetchedResponse(status: status, headers: transfer.headers, body: transfer.body, url: finalURL)
    }

    // MARK: - Setup

    /// Sets the options that stay fixed for the client's life; returns a
    /// description of the first option libcurl refused, if any.
    private static func configure(_ handle: CurlEasyHandle, with configuration: CurlClientConfiguration) -> String? {
        let settings: [(String, CURLcode)] = [
            ("CURLOPT_NOSIGNAL", handle.set(CURLOPT_NOSIGNAL, 1)),
            ("CURLOPT_USERAGENT", handle.set(CURLOPT_USERAGENT, configuration.userAgent)),
            ("CURLOPT_CONNECTTIMEOUT_MS", handle.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout))),
            ("CURLOPT_TIMEOUT_MS", handle.set(CURLOPT_TIMEOUT_MS, milliseconds(configuration.totalTimeout))),
            ("CURLOPT_FOLLOWLOCATION", handle.set(CURLOPT_FOLLOWLOCATION, configuration.maxRedirects > 0 ? 1 : 0)),
            ("CURLOPT_MAXREDIRS", handle.set(CURLOPT_MAXREDIRS, max(0, configuration.maxRedirects))),
            ("CURLOPT_PROTOCOLS_STR", handle.set(CURLOPT_PROTOCOLS_STR, "http,https")),
            ("CURLOPT_REDIR_PROTOCOLS_STR", handle.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")),
            // "" advertises every encoding libcurl can decode (gzip, deflate, ...).
            ("CURLOPT_ACCEPT_ENCODING", handle.set(CURLOPT_ACCEPT_ENCODING, "")),
            ("CURLOPT_SSL_VERIFYPEER", handle.set(CURLOPT_SSL_VERIFYPEER, 1)),
            ("CURLOPT_SSL_VERIFYHOST", handle.set(CURLOPT_SSL_VERIFYHOST, 2)),
            // Early refusal when Content-Length already announces too much;
            // the write callback enforces the limit on the decoded body.
            ("CURLOPT_MAXFILESIZE", handle.set(CURLOPT_MAXFILESIZE, max(0, configuration.maxBodyBytes))),
            ("CURLOPT_MAXCONNECTS", handle.set(CURLOPT_MAXCONNECTS, 1)),
        ]
        let callbacks = handle.installCallbacks().map { ("callbacks", $0) }
        for (name, code) in settings + callbacks where code != CURLE_OK {
            return "libcurl refused \(name): \(String(cString: hubgeo_curl_easy_strerror(code)))"
        }
        return nil
    }

    /// Whole milliseconds for libcurl; a limit too long to express (over 24 days) saturates.
    static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 } // 0 = libcurl default / no limit
        return max(1, Int(min((seconds * 1000).rounded(), Double(Int32.max))))
    }

    /// True when the header can be sent: a name without separators, and no control character
    /// (but tab) in either, which could end the header line and start another.
    package static func isValidHeader(name: String, value: String) -> Bool {
        let forbiddenInName: Set<Character> = [":", ";", " ", "\t"]
        guard !name.isEmpty,
              !name.contains(where: { forbiddenInName.contains($0) }),
              !(name + value).unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" })
        else { return false }
        return true
    }

    // MARK: - Errors

    private func error(for code: CURLcode, url: URL, transfer: CurlTransfer, handle: CurlEasyHandle) -> FetchError {
        let detail = handle.errorMessage(for: code)
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // After a request went out, the refused URL is a redirect target: libcurl has made
            // it the effective URL, and the last URL requested is the one that redirected.
            if let from = transfer.requestedURLs.last.flatMap(URL.init(string:)),
               let target = handle.infoString(CURLINFO_EFFECTIVE_URL) {
                return .redirectRefused(url, from: from, to: target)
            }
            return .unsupportedScheme(url)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl reports both limits with this code; its message tells them apart.
            let connectPhase = detail.hasPrefix("Connection timed out") || detail.hasPrefix("Resolving timed out")
            let seconds = connectPhase
                ? min(configuration.connectTimeout, configuration.totalTimeout)
                : configuration.totalTimeout
            return .timedOut(url, seconds: seconds)
        case CURLE_COULDNT_RESOLVE_HOST:
            return .couldNotResolve(url)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotConnect(url, detail)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url, limit: configuration.maxRedirects,
                                     from: transfer.requestedURLs.last.flatMap(URL.init(string:)),
                                     to: handle.infoString(CURLINFO_REDIRECT_URL))
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(url, limit: configuration.maxBodyBytes)
        case CURLE_ABORTED_BY_CALLBACK where transfer.followUpRefused:
            return .failed(url, "stopped before request \(transfer.requestedURLs.count + 1) of this fetch (a redirect or a resend)")
        case CURLE_WRITE_ERROR where transfer.bodyTooLarge:
            return .bodyTooLarge(url, limit: configuration.maxBodyBytes)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING,
             CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
            return .transfer(url, detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .tls(url, detail)
        default:
            return .failed(url, "\(detail) (libcurl error \(code.rawValue))")
        }
    }
}
