extension TFLiteModelFile {
    /// Labels for output tensor `outputIndex`, from the label file the metadata attaches to it.
    ///
    /// The candidates are that output's associated files of type ``AssociatedFileType/tensorAxisLabels``
    /// (classifier scores), or, when there are none, of type ``AssociatedFileType/tensorValueLabels``
    /// (detector classes). See ``labelFile(forOutput:locale:)`` for which candidate is chosen.
    ///
    /// - Returns: nil when the model has no metadata, no such output, or no label file for it.
    /// - Throws: ``ModelFileError/missingAssociatedFile(name:)`` when the chosen file is not in the model's
    ///   zip, or the zip errors of ``AssociatedFiles/data(named:)``.
    package func labelMap(forOutput outputIndex: Int, locale: String = "en") throws(ModelFileError) -> LabelMap? {
        guard let file = labelFile(forOutput: outputIndex, locale: locale) else { return nil }
        guard let data = try associatedFiles.data(named: file.name) else {
            throw .missingAssociatedFile(name: file.name)
        }
        return try LabelMap(text: data)
    }

    /// The label file the metadata attaches to output `outputIndex`, for `locale`.
    ///
    /// Among the output's files of type ``AssociatedFileType/tensorAxisLabels`` (else
    /// ``AssociatedFileType/tensorValueLabels``), the choice is, in order: the file whose locale equals
    /// `locale` (ignoring case and `-`/`_`), the file whose locale has the same language (`"en-US"` for
    /// `"en"`), the first file without a locale, the first file.
    package func labelFile(forOutput outputIndex: Int, locale: String = "en") -> AssociatedFileInfo? {
        guard let outputs = metadata?.outputTensors, outputs.indices.contains(outputIndex) else { return nil }
        let output = outputs[outputIndex]
        var candidates = output.associatedFiles(ofType: .tensorAxisLabels)
        if candidates.isEmpty { candidates = output.associatedFiles(ofType: .tensorValueLabels) }
        return chooseLocalizedFile(candidates, locale: locale)
    }
}

/// Picks the file for `locale` among translations of the same file.
func chooseLocalizedFile(_ files: [AssociatedFileInfo], locale: String) -> AssociatedFileInfo? {
    let wanted = normalizedLocale(locale)
    let wantedLanguage = language(of: wanted)
    if let exact = files.first(where: { $0.locale.map(normalizedLocale) == wanted }) { return exact }
    if let sameLanguage = files.first(where: { file in
        guard let locale = file.locale else { return false }
        return language(of: normalizedLocale(locale)) == wantedLanguage
    }) {
        return sameLanguage
    }
    if let neutral = files.first(where: { $0.locale == nil || $0.locale?.isEmpty == true }) { return neutral }
    return files.first
}

private func normalizedLocale(_ locale: String) -> String {
    String(locale.lowercased().map { $0 == "_" ? "-" : $0 })
}

private func language(of locale: String) -> Substring {
    locale.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
}
