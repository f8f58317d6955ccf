import HubGeoReader

/// The keys each kind of object in Photo Club Hub files may have, and what their values are.
/// `validate` walks every parsed document along this schema to find unknown keys (typos),
/// wrong types in fields the importer does not read, and doubtful strings.
indirect enum DocumentSchema: Sendable {
    /// What a string stands for, which decides the checks applied to it.
    enum Text: Sendable {
        case plain
        /// An `idPlus` name: a control character in it is the importer's error, not a warning here.
        case name
        case url
        /// An entry of `level1URLIncludes`: the tree walk and ``IncludeCheck`` judge it.
        case include
        case language
        case expertise
    }

    case object([String: DocumentSchema])
    case array(DocumentSchema)
    case string(Text)
    case number
    case bool

    var kindDescription: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        }
    }

    static let remark: DocumentSchema = .array(.object(["language": .string(.language), "value": .string(.plain)]))

    /// A Level 1 entry or a Level 2 `club` record.
    static let organization: DocumentSchema = .object([
        "idPlus": .object(["town": .string(.name), "fullName": .string(.name), "nickName": .string(.name)]),
        "coordinates": .object(["latitude": .number, "longitude": .number]),
        "optional": .object([
            "website": .string(.url), "wikipedia": .string(.url), "level2URL": .string(.url),
            "maintainerEmail": .string(.plain), "nlSpecific": .object(["fotobondNumber": .number]),
            "remark": remark,
        ]),
    ])

    static let level1: DocumentSchema = .object([
        "level1Header": .object([
            "level1URL": .string(.url), "level1URLIncludes": .array(.string(.include)), "maintainerEmail": .string(.plain),
        ]),
        "clubs": .array(organization),
        "museums": .array(organization),
    ])

    static let member: DocumentSchema = .object([
        "name": .object(["givenName": .string(.plain), "infixName": .string(.plain), "familyName": .string(.plain)]),
        "optional": .object([
            "birthday": .string(.plain), "expertises": .array(.string(.expertise)),
            "featuredImage": .string(.url), "photographerImage": .string(.url), "level3URL": .string(.url),
            "website": .string(.url), "membershipStartDate": .string(.plain), "membershipEndDate": .string(.plain),
            "nlSpecific": .object(["fotobondNumber": .number]),
            "roles": .object(["isAdmin": .bool, "isChairman": .bool, "isViceChairman": .bool, "isSecretary": .bool,
                              "isTreasurer": .bool, "isOther": .bool]),
            "status": .object(["isDeceased": .bool, "isFormerMember": .bool, "isHonoraryMember": .bool,
                               "isMentor": .bool, "isProspectiveMember": .bool]),
        ]),
    ])

    static let level2: DocumentSchema = .object(["club": organization, "members": .array(member)])

    static let localizedStrings: DocumentSchema = .array(.object(["language": .string(.language), "localizedString": .string(.plain)]))

    static let level0: DocumentSchema = .object([
        "expertises": .array(.object([
            "idString": .string(.plain), "name": localizedStrings,
            "optional": .object(["usage": localizedStrings, "dateAdded": .string(.plain)]),
        ])),
        "languages": .array(.object(["isoCode": .string(.plain), "languageNameEN": .string(.plain), "isSupported": .bool])),
    ])

    static func of(_ kind: DocumentKind) -> DocumentSchema {
        switch kind {
        case .level0: level0
        case .level1: level1
        case .level2: level2
        }
    }
}
