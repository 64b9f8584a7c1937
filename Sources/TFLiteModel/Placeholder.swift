// Model reader
