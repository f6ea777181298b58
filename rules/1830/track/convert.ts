// 18xx.games export payloads -> our actions (pure; for the importer).
export {};
