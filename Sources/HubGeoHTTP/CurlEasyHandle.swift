import CCurl
import Foundation
import HubGeoModel

/// One libcurl easy handle plus the error buffer libcurl writes into
/// (`CURLOPT_ERRORBUFFER`); both live exactly as long as this object.
/// Not thread-safe: one transfer at a time, on one thread at a time.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Why no handle could be made: libcurl.so.4 missing or unusable (the first handle of a
    /// process loads it, see `hubgeo_curl_load`), or `curl_easy_init` failing.
    struct Unavailable: Error {
        let reason: String
    }

    init() throws(Unavailable) {
        if let failure = hubgeo_curl_load() { throw Unavailable(reason: String(cString: failure)) }
        guard let raw = hubgeo_curl_easy_init() else { throw Unavailable(reason: "libcurl could not create a handle (curl_easy_init)") }
        self.raw = raw
        let size = Int(CURL_ERROR_SIZE)
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
        // libcurl keeps this pointer; it stays valid until deinit.
        _ = hubgeo_curl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        hubgeo_curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    // MARK: Options

    @discardableResult
    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        hubgeo_curl_setopt_long(raw, option, value)
    }

    @discardableResult
    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        // libcurl copies string options, so a temporary C string is enough.
        hubgeo_curl_setopt_string(raw, option, value)
    }

    @discardableResult
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> CURLcode {
        hubgeo_curl_setopt_pointer(raw, option, pointer)
    }

    @discardableResult
    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) -> CURLcode {
        hubgeo_curl_setopt_slist(raw, option, list)
    }

    @discardableResult
    func set(_ option: CURLoption, callback: curl_write_callback) -> CURLcode {
        hubgeo_curl_setopt_write_callback(raw, option, callback)
    }

    // MARK: Transfer

    /// Runs the configured transfer (blocking) after clearing the error buffer.
    func perform() -> CURLcode {
        errorBuffer[0] = 0
        return hubgeo_curl_easy_perform(raw)
    }

    /// libcurl's message for the last failure: the error buffer's detailed text,
    /// or the generic `curl_easy_strerror` text when the buffer is empty.
    func errorMessage(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        if !detail.isEmpty { return detail }
        return String(cString: hubgeo_curl_easy_strerror(code))
    }

    // MARK: Info

    func infoInt(_ info: CURLINFO) -> Int? {
        var value = 0
        return hubgeo_curl_getinfo_long(raw, info, &value) == CURLE_OK ? value : nil
    }

    func infoString(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>? = nil
        guard hubgeo_curl_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

/// What the C callbacks collect during one transfer. Reached from C through an
/// unretained `Unmanaged` pointer set as `CURLOPT_WRITEDATA`/`CURLOPT_HEADERDATA`;
/// the caller keeps it alive across `curl_easy_perform`.
final class CurlTransfer {
    let maxBodyBytes: Int
    /// The handle running the transfer, asked for the URL of each request.
    let handle: CurlEasyHandle?
    /// Asked just before each request of the transfer after the first (a redirect, or libcurl's
    /// resend on a fresh connection when a kept-alive one turned out closed); may block, for
    /// pacing. Returning false aborts the transfer.
    let beforeFollowUp: (() -> Bool)?
    /// The URL of each request sent so far, in order: the first, then redirects and resends.
    private(set) var requestedURLs: [String] = []
    /// Set when ``beforeFollowUp`` refused a request.
    private(set) var followUpRefused = false
    private(set) var body = Data()
    /// Headers of the latest response seen (reset at each status line, so after
    /// redirects or `100 Continue` only the final response's headers remain).
    private(set) var headers: [String: String] = [:]
    /// Set when the write callback refused data over ``maxBodyBytes``.
    private(set) var bodyTooLarge = false
    private var lastHeaderName: String?

    init(maxBodyBytes: Int, handle: CurlEasyHandle? = nil, beforeFollowUp: (() -> Bool)? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.handle = handle
        self.beforeFollowUp = beforeFollowUp
    }

    /// A request to `url` is about to go out; false refuses it (always once the process is
    /// interrupted, see ``Interruption``).
    func requestStarting(url: String) -> Bool {
        if Interruption.isRequested { return false }
        if !requestedURLs.isEmpty, let beforeFollowUp, !beforeFollowUp() || Interruption.isRequested {
            followUpRefused = true
            return false
        }
        requestedURLs.append(url)
        return true
    }

    /// Appends body bytes; false (abort) when the limit would be exceeded.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= maxBodyBytes else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Takes one raw header line as delivered by libcurl (with its CRLF).
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Strip CR/LF as bytes: in Swift "\r\n" is a single Character.
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            lastHeaderName = nil
        } else if line.isEmpty {
            lastHeaderName = nil
        } else if line.first == " " || line.first == "\t" {
            // Obsolete line folding: continues the previous header's value.
            if let name = lastHeaderName, let value = headers[name] {
                headers[name] = value + " " + line.trimmingCharacters(in: .whitespaces)
            }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
            lastHeaderName = name
        }
    }
}

extension CurlEasyHandle {
    /// Installs the body and header callbacks. They are non-capturing C function
    /// pointers; the per-transfer state arrives through the userdata pointer.
    func installCallbacks() -> [CURLcode] {
        let write: curl_write_callback = { buffer, size, count, userdata in
            let length = size * count
            guard let userdata else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            // Returning anything but `length` makes libcurl abort with CURLE_WRITE_ERROR.
            return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
        }
        let header: curl_write_callback = { buffer, size, count, userdata in
            let length = size * count
            guard let userdata else { return length }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length))
            return length
        }
        // Before each request goes out (libcurl's resends and redirects included). The URL is
        // the transfer's effective URL at that moment: the one being requested.
        let prerequest: curl_prereq_callback = { userdata, _, _, _, _ in
            guard let userdata else { return Int32(CURL_PREREQFUNC_OK) }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            let url = transfer.handle.flatMap { $0.infoString(CURLINFO_EFFECTIVE_URL) } ?? ""
            return transfer.requestStarting(url: url) ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
        }
        // Called while the transfer runs (often while data flows, about once a second while it
        // waits, and after each wait a signal cut short): non-zero aborts it.
        let progress: curl_xferinfo_callback = { _, _, _, _, _ in
            Interruption.isRequested ? 1 : 0
        }
        return [
            set(CURLOPT_WRITEFUNCTION, callback: write),
            set(CURLOPT_HEADERFUNCTION, callback: header),
            hubgeo_curl_setopt_prereq_callback(raw, prerequest),
            hubgeo_curl_setopt_xferinfo_callback(raw, progress),
            set(CURLOPT_NOPROGRESS, 0),
        ]
    }
}
