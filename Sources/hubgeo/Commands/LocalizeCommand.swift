import ArgumentParser
import Foundation
import HubGeo
#if canImport(Glibc)
import Glibc
#endif

struct LocalizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "localize",
        abstract: "Cache every organization's town and country per language, from Nominatim.",
        discussion: """
            Reverse geocodes each distinct coordinate in the languages not yet cached: one request per \
            point, plus at most one per country and one per point whose answer is not its town (a suburb), \
            however many languages; the others are derived from the names Nominatim returns, only where that \
            equals asking. At most one request per second to the public server; each answer is committed as \
            it arrives: an interrupted run \
            resumes where it stopped, and a second run makes no request. Ctrl-C or SIGTERM stops it at once, \
            also during a request or a wait, and sends no further request. The public server needs a contact \
            (--contact or $HUBGEO_CONTACT). Exit status: 0 done, 1 failures or stopped, 130 interrupted.
            Example: hubgeo localize --lang en,nl --contact you@example.org
            """)

    @Option(name: .customLong("lang"), help: ArgumentHelp("Comma-separated language codes.", valueName: "codes"))
    var languages: String

    @Option(help: "Only organizations of this type (club or museum).")
    var type: OrganizationType?

    @Flag(help: "Answer from the cache only; no network at all.")
    var offline = false

    @Option(name: .customLong("max-requests"), help: ArgumentHelp("Send at most N requests, then stop (resume later); 0 sends none (0 to 1000000000).", valueName: "N"))
    var maxRequests: Int?

    @Option(name: .customLong("progress-every"), help: ArgumentHelp("When stderr is not a terminal, a progress line every N points (1 to 1000000000).", valueName: "N"))
    var progressEvery: Int = 25

    @OptionGroup var nominatim: NominatimOptions
    @OptionGroup var zoom: ZoomOption
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        _ = try LanguageList.parse(languages)
        try CountBounds.check(maxRequests, "--max-requests")
        try CountBounds.check(progressEvery, "--progress-every", minimum: 1)
    }

    func run() throws {
        Interruption.installSignalHandlers()
        let languages = try LanguageList.parse(languages)
        let configuration = try nominatim.configuration(zoom: zoom)
        if !offline && configuration.isPublicServer && configuration.contact == nil {
            throw GeocodeError.contactRequired(configuration.endpoint)
        }
        let store = try database.openStore()
        var client: NominatimClient?
        if !offline {
            client = NominatimClient(configuration: configuration)
            client?.requestBudget = maxRequests
        }
        let localizer = Localizer(store: store, client: client, configuration: configuration)
        let display = ProgressDisplay(isTerminal: isatty(2) == 1, every: progressEvery)
        if !offline {
            Console.note("Localizing in \(languages.joined(separator: ", ")) with \(configuration.endpointKey) "
                + "(zoom \(configuration.zoom), at most one request per \(ProgressDisplay.seconds(configuration.minimumInterval)) s).")
        }
        let summary = try localizer.run(Localizer.Options(languages: languages, type: type, offline: offline),
                                        progress: display.show)
        display.finish()
        report(summary, languages: languages)
        if summary.interrupted { throw ExitCode(130) }
        if case .requestBudgetExhausted = summary.stoppedBy, summary.progress.failures == 0 { return }
        if summary.stoppedBy != nil || summary.progress.failures > 0 { throw ExitCode.failure }
    }

    private func report(_ summary: Localizer.Summary, languages: [String]) {
        let p = summary.progress
        var lines = ["Went through \(p.done) of \(p.total) distinct coordinates (\(p.organizations) organizations) "
            + "in \(counted(languages.count, "language")) (\(languages.joined(separator: ", ")))."]
        lines.append("Requests made: \(p.requests); answers fetched: \(p.fetched), derived without a request: \(p.derived), "
            + "cache hits: \(p.cacheHits); no-result places: \(p.noResult); failures: \(p.failures).")
        if p.missingOffline > 0 {
            lines.append("Offline: \(p.missingOffline) point-language pairs are not cached; those show the Level 1 town.")
        }
        if let error = summary.lastFailure, summary.stoppedBy == nil {
            lines.append("Last failure: \(error.localizedDescription) Run again to retry the failed places.")
        }
        if let error = summary.stoppedBy {
            if case .requestBudgetExhausted = error {
                lines.append("Stopped at --max-requests; run again to continue.")
            } else {
                lines.append("Stopped: \(error.localizedDescription)")
            }
        }
        if summary.interrupted { lines.append("Interrupted: every answer so far is saved; run again to resume.") }
        for line in lines { Console.note(line) }
    }
}

/// The progress on stderr: a redrawn bar on a terminal, else a plain line every N points.
final class ProgressDisplay {
    private let isTerminal: Bool
    private let every: Int
    private var drewBar = false

    init(isTerminal: Bool, every: Int) {
        self.isTerminal = isTerminal
        self.every = every
    }

    func show(_ p: Localizer.Progress) {
        let counts = "\(p.done)/\(p.total) points, \(p.requests) requests, \(p.cacheHits) cache hits"
        let eta = p.estimatedRemaining.map { ", ETA \(Self.clock($0))" } ?? ""
        if isTerminal {
            let width = 24
            let filled = p.total == 0 ? width : width * p.done / p.total
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(counts)\(eta)".utf8))
            drewBar = true
        } else if p.done % every == 0 || p.done == p.total {
            Console.note("progress: \(counts)\(eta)")
        }
    }

    func finish() {
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    static func clock(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
