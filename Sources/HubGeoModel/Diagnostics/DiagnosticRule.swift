/// The stable id of every kind of diagnostic, with what it means and how to fix it: what
/// `validate --format github` puts in an annotation's title, SARIF lists as its rules, and
/// docs/rules.md documents. An id never changes once published; a new kind of finding gets a
/// new id.
public enum DiagnosticRule: String, Sendable, Codable, CaseIterable, Comparable {
    // The file as a whole.
    /// `json-syntax`: The file is not valid JSON.
    case jsonSyntax = "json-syntax"
    /// `unreadable-file`: A file or URL cannot be read.
    case unreadableFile = "unreadable-file"
    // Records and their fields.
    /// `wrong-type`: A value of the wrong type.
    case wrongType = "wrong-type"
    /// `missing-key`: A required key is missing.
    case missingKey = "missing-key"
    /// `empty-value`: A required text is empty.
    case emptyValue = "empty-value"
    /// `control-character-in-name`: A name holds a control character.
    case controlCharacterInName = "control-character-in-name"
    /// `coordinates-out-of-range`: A latitude or longitude out of range.
    case coordinatesOutOfRange = "coordinates-out-of-range"
    /// `duplicate-remark-language`: A second remark in one language.
    case duplicateRemarkLanguage = "duplicate-remark-language"
    // The include tree.
    /// `include-name`: An include that does not name a NAME.level1.json file.
    case includeName = "include-name"
    /// `include-missing`: An included file does not exist.
    case includeMissing = "include-missing"
    /// `include-cycle`: Includes form a cycle.
    case includeCycle = "include-cycle"
    /// `include-too-deep`: An include chain is too long.
    case includeTooDeep = "include-too-deep"
    /// `include-refused`: An include a remote file may not make.
    case includeRefused = "include-refused"
    /// `include-not-https`: An include that is not an https URL.
    case includeNotHTTPS = "include-not-https"
    /// `include-elsewhere`: An include in another folder than the including file.
    case includeElsewhere = "include-elsewhere"
    /// `no-organizations`: A tree without any usable club or museum.
    case noOrganizations = "no-organizations"
    /// `placeholder`: A Level 1 file without clubs or museums yet.
    case placeholder = "placeholder"
    /// `no-root`: A folder without a Level 1 root.
    case noRoot = "no-root"
    /// `duplicate-identity`: An organization declared twice.
    case duplicateIdentity = "duplicate-identity"
    /// `legacy-drift`: The legacy root.level1.json disagrees with the tree.
    case legacyDrift = "legacy-drift"
    // Level 2.
    /// `orphan-level2`: A Level 2 club that no Level 1 file declares.
    case orphanLevel2 = "orphan-level2"
    /// `level2-mismatch`: A Level 2 file names another club than the one it belongs to.
    case level2Mismatch = "level2-mismatch"
    /// `level2-duplicate`: A second Level 2 file for one club.
    case level2Duplicate = "level2-duplicate"
    /// `level2-alone`: A Level 2 file checked without its Level 1 tree.
    case level2Alone = "level2-alone"
    // Level 0.
    /// `expertise-without-id`: A Level 0 expertise without idString.
    case expertiseWithoutId = "expertise-without-id"
    /// `duplicate-language`: A Level 0 language listed twice.
    case duplicateLanguage = "duplicate-language"
    /// `duplicate-expertise`: A Level 0 expertise listed twice.
    case duplicateExpertise = "duplicate-expertise"
    /// `empty-level0`: A Level 0 file that defines nothing.
    case emptyLevel0 = "empty-level0"
    // Content an import accepts.
    /// `unknown-key`: A key the app does not know.
    case unknownKey = "unknown-key"
    /// `duplicate-key`: A key written twice in one object.
    case duplicateKey = "duplicate-key"
    /// `padded-string`: Leading or trailing spaces.
    case paddedString = "padded-string"
    /// `control-character`: A control character in a text.
    case controlCharacter = "control-character"
    /// `bidirectional-control`: A bidirectional control character in a text.
    case bidirectionalControl = "bidirectional-control"
    /// `empty-url`: An empty string where a URL belongs.
    case emptyURL = "empty-url"
    /// `not-http-url`: A URL that is not http(s).
    case notHTTPURL = "not-http-url"
    /// `unknown-language`: A language that Level 0 does not list.
    case unknownLanguage = "unknown-language"
    /// `unknown-expertise`: An expertise that Level 0 does not define.
    case unknownExpertise = "unknown-expertise"
    /// `coordinates-identical`: Two organizations at exactly the same coordinates.
    case coordinatesIdentical = "coordinates-identical"
    /// `coordinates-near`: Two organizations within 5 m of each other.
    case coordinatesNear = "coordinates-near"
    /// `coordinates-zero`: Coordinates (0, 0).
    case coordinatesZero = "coordinates-zero"
    // validate --geocode.
    /// `town-mismatch`: The town does not match the place at the coordinates.
    case townMismatch = "town-mismatch"
    /// `town-nowhere`: The coordinates point at no place.
    case townNowhere = "town-nowhere"

    /// The rule's stable id, its raw value.
    public var id: String { rawValue }

    /// Orders by id.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The severity `validate` gives it (a few rules are reported at another severity where
    /// that is said: a placeholder, a walker's wrong type).
    public var defaultSeverity: Diagnostic.Severity {
        switch self {
        case .jsonSyntax, .unreadableFile, .wrongType, .missingKey, .emptyValue, .controlCharacterInName,
             .coordinatesOutOfRange, .duplicateRemarkLanguage, .includeName, .includeMissing, .includeCycle,
             .includeTooDeep, .includeRefused, .noOrganizations, .duplicateIdentity, .orphanLevel2, .level2Mismatch,
             .level2Duplicate, .expertiseWithoutId:
            .error
        case .includeNotHTTPS, .includeElsewhere, .placeholder, .noRoot, .legacyDrift, .level2Alone, .duplicateLanguage,
             .duplicateExpertise, .emptyLevel0, .unknownKey, .duplicateKey, .paddedString, .controlCharacter,
             .bidirectionalControl, .emptyURL, .notHTTPURL, .unknownLanguage, .unknownExpertise, .coordinatesIdentical,
             .coordinatesNear, .coordinatesZero, .townMismatch, .townNowhere:
            .warning
        }
    }

    /// One line: what the rule finds.
    public var title: String {
        switch self {
        case .jsonSyntax: "The file is not valid JSON"
        case .unreadableFile: "A file or URL cannot be read"
        case .wrongType: "A value of the wrong type"
        case .missingKey: "A required key is missing"
        case .emptyValue: "A required text is empty"
        case .controlCharacterInName: "A name holds a control character"
        case .coordinatesOutOfRange: "A latitude or longitude out of range"
        case .duplicateRemarkLanguage: "A second remark in one language"
        case .includeName: "An include that does not name a NAME.level1.json file"
        case .includeMissing: "An included file does not exist"
        case .includeCycle: "Includes form a cycle"
        case .includeTooDeep: "An include chain is too long"
        case .includeRefused: "An include a remote file may not make"
        case .includeNotHTTPS: "An include that is not an https URL"
        case .includeElsewhere: "An include in another folder than the including file"
        case .noOrganizations: "A tree without any usable club or museum"
        case .placeholder: "A Level 1 file without clubs or museums yet"
        case .noRoot: "A folder without a Level 1 root"
        case .duplicateIdentity: "An organization declared twice"
        case .legacyDrift: "The legacy root.level1.json disagrees with the tree"
        case .orphanLevel2: "A Level 2 club that no Level 1 file declares"
        case .level2Mismatch: "A Level 2 file names another club than the one it belongs to"
        case .level2Duplicate: "A second Level 2 file for one club"
        case .level2Alone: "A Level 2 file checked without its Level 1 tree"
        case .expertiseWithoutId: "A Level 0 expertise without idString"
        case .duplicateLanguage: "A Level 0 language listed twice"
        case .duplicateExpertise: "A Level 0 expertise listed twice"
        case .emptyLevel0: "A Level 0 file that defines nothing"
        case .unknownKey: "A key the app does not know"
        case .duplicateKey: "A key written twice in one object"
        case .paddedString: "Leading or trailing spaces"
        case .controlCharacter: "A control character in a text"
        case .bidirectionalControl: "A bidirectional control character in a text"
        case .emptyURL: "An empty string where a URL belongs"
        case .notHTTPURL: "A URL that is not http(s)"
        case .unknownLanguage: "A language that Level 0 does not list"
        case .unknownExpertise: "An expertise that Level 0 does not define"
        case .coordinatesIdentical: "Two organizations at exactly the same coordinates"
        case .coordinatesNear: "Two organizations within 5 m of each other"
        case .coordinatesZero: "Coordinates (0, 0)"
        case .townMismatch: "The town does not match the place at the coordinates"
        case .townNowhere: "The coordinates point at no place"
        }
    }

    /// What it means and how to fix it (the same text as docs/rules.md).
    public var help: String {
        switch self {
        case .jsonSyntax:
            "The file is not strict JSON (RFC 8259): a missing or extra comma, a comment, single quotes, an unterminated string, NaN, invalid UTF-8 or UTF-16. The app cannot read any of it. Fix the text at the line and column given."
        case .unreadableFile:
            "A file or URL could not be read: it does not exist, the server answered an error, or it is over the 20 MiB limit. Check the name or URL."
        case .wrongType:
            "A value has the wrong JSON type: a quoted number (\"51.4\"), an object where an array belongs, a string for true/false. The app skips the record (or the whole file when it is the file's shape). Write the value as the schema says."
        case .missingKey:
            "A required key is missing: idPlus with town, fullName and nickName, coordinates with latitude and longitude, a Level 2 club, a member's name. The app skips the record. Add the key."
        case .emptyValue:
            "A required text is empty or only spaces. The app skips the record. Fill it in."
        case .controlCharacterInName:
            "A town, full name or nickname holds a control character (a tab, a line break, U+0000-U+001F, U+007F-U+009F). The import skips the organization. Remove the character."
        case .coordinatesOutOfRange:
            "A latitude outside [-90, 90] or a longitude outside [-180, 180]. The record is skipped. Swapped or mistyped coordinates are the usual cause."
        case .duplicateRemarkLanguage:
            "Two remarks in one language (languages compare without case: en and EN are one). The second is ignored. Merge them or remove one."
        case .includeName:
            "An entry of level1URLIncludes whose last path component is not NAME.level1.json. The app skips it (a fatal error in its debug builds), and so does hubgeo. Name the file NAME.level1.json."
        case .includeMissing:
            "The included Level 1 file does not exist next to the including file (only its name counts). Add the file or correct the name."
        case .includeCycle:
            "Level 1 files include each other in a circle. Remove one of the includes."
        case .includeTooDeep:
            "The include chain is longer than hubgeo follows (100,000 files). Flatten the tree."
        case .includeRefused:
            "A file fetched over http(s) includes a local file or a URL above the server's root, which hubgeo never reads. Use an http(s) URL in the same tree."
        case .includeNotHTTPS:
            "An include that is not an https URL (a bare name, a relative path, http). App versions from 3.1.0 on fetch an include at the URL as written and skip one that is not https. Write the full https URL."
        case .includeElsewhere:
            "An include whose URL lies in another folder than the including file. App versions from 3.1.0 on fetch it there; earlier versions, and hubgeo, read NAME.level1.json from the including file's folder: the two see different trees. Keep the included files next to the including one."
        case .noOrganizations:
            "The tree holds no club or museum the app can use: none at all, or every one skipped (the other errors say why)."
        case .placeholder:
            "A Level 1 file that the root tree does not reach holds no club or museum yet: fine when a tree includes it later."
        case .noRoot:
            "A folder without root_.level1.json or root.level1.json: each file is checked on its own, so includes and Level 2 matching are not checked."
        case .duplicateIdentity:
            "The same town and full name are declared a second time; the first declaration counts and the second is ignored. Remove one, or correct the town or full name."
        case .legacyDrift:
            "The legacy flat root.level1.json (still read by app versions before 2.9.0) disagrees with the root_.level1.json tree: an organization in one and not the other, or a field that differs. Apply the same change to both files."
        case .orphanLevel2:
            "A Level 2 file whose club (town and full name) no Level 1 file declares; its members are not shown. Make its club.idPlus repeat the Level 1 town and full name exactly, or add the club to Level 1."
        case .level2Mismatch:
            "The Level 2 file named after a club's nickName describes another club (town or full name differ, perhaps only by case or spaces). Its data is not applied. Make both identical."
        case .level2Duplicate:
            "A club already has Level 2 data from another file; this one is ignored. Remove one of them."
        case .level2Alone:
            "A Level 2 file checked without a Level 1 root next to it: whether its club is in Level 1 is not checked. Check the folder, or the tree, instead."
        case .expertiseWithoutId:
            "A Level 0 expertise without idString; the app skips it. Add the idString."
        case .duplicateLanguage:
            "A Level 0 language code listed twice (codes compare without case). Remove one."
        case .duplicateExpertise:
            "A Level 0 expertise idString listed twice. Remove one."
        case .emptyLevel0:
            "A Level 0 file with neither languages nor expertises."
        case .unknownKey:
            "A key the app does not read: a typo, or a key outside optional (birthday belongs inside optional). The app ignores it. Correct or remove it. ($schema, for an editor, is never reported.)"
        case .duplicateKey:
            "The same key twice in one object; the last one counts. Remove one."
        case .paddedString:
            "A text with leading or trailing spaces. In town and fullName it matters most: Level 2 must repeat them exactly. Remove the spaces."
        case .controlCharacter:
            "A control character (U+0000-U+001F, DEL, U+0080-U+009F) in a text: it takes effect on a terminal that shows it raw. Remove it."
        case .bidirectionalControl:
            "A bidirectional control (U+202A-U+202E, U+2066-U+2069) in a text: it reorders or hides the text around it. Remove it."
        case .emptyURL:
            "An empty string where a URL belongs (website, wikipedia, level2URL, featuredImage, level3URL, ...). Leave the key out instead."
        case .notHTTPURL:
            "A URL that is not an http(s) URL with a host. Write the full URL."
        case .unknownLanguage:
            "A remark language that Level 0 does not list (compared without case). Use a listed language, or add it to Level 0."
        case .unknownExpertise:
            "A member expertise that Level 0 does not define (compared exactly); the nearest known id is suggested. Use the Level 0 idString."
        case .coordinatesIdentical:
            "Two organizations have exactly the same coordinates: usually one coordinate pasted twice. Check both."
        case .coordinatesNear:
            "Two organizations lie within 5 m of each other: usually one coordinate pasted twice (two clubs in one building are possible). Check both."
        case .coordinatesZero:
            "Coordinates (0, 0) lie in the Gulf of Guinea: probably never filled in."
        case .townMismatch:
            "validate --geocode: the declared town matches no name of the place Nominatim finds at the coordinates. Swapped or mistyped coordinates, or another spelling of the town."
        case .townNowhere:
            "validate --geocode: the coordinates point at no place Nominatim knows (at sea, far from any town): swapped or mistyped coordinates?"
        }
    }
}
