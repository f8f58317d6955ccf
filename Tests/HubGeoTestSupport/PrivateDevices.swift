import Foundation

/// Runs a shell script in a private mount namespace whose `/dev` is a fresh tmpfs holding only
/// `null` (the real device, bind-mounted), `fd`, `stdin`, `stdout` and `stderr`: what hubgeo does to
/// `/dev` there can never touch the machine's own. `$HUBGEO_BIN` is the built hubgeo; the database
/// and home are in `home`.
package enum PrivateDevices {
    package static func run(_ script: String, home: TemporaryDirectory, database: String? = nil) throws -> CommandRunner.Result {
        var environment = CLIRunner(database: database ?? home.path("hub.sqlite"), home: home.url.path).environment
        environment["HUBGEO_BIN"] = try CLIRunner.binary().path
        environment["WORK"] = home.url.path
        let setUp = """
            set -u
            keep="$WORK/.real-null"; : > "$keep"
            mount --bind /dev/null "$keep" || exit 90
            mount -t tmpfs -o size=1m,mode=755 private-dev /dev || exit 91
            : > /dev/null && mount --bind "$keep" /dev/null || exit 92
            ln -s /proc/self/fd /dev/fd; ln -s /proc/self/fd/0 /dev/stdin
            ln -s /proc/self/fd/1 /dev/stdout; ln -s /proc/self/fd/2 /dev/stderr
            cd "$WORK"

            """
        // As root a plain mount namespace; otherwise one inside a user namespace where this user is root.
        let isolation = getuid() == 0 ? ["--mount"] : ["--mount", "--map-root-user"]
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/unshare"), isolation + ["/bin/sh", "-c", setUp + script],
                                           environment: environment, timeout: 120)
        if (90...92).contains(result.status) {
            throw CommandRunner.Failure(description: "could not set up a private /dev (step \(result.status - 89)): \(result.stderr)")
        }
        return result
    }
}
