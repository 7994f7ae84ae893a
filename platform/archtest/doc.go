// Package archtest holds the import-graph test that keeps the house rules of
// ../shared/ARCHITECTURE.md mechanical: modules meet only at their api packages,
// platform imports no module, domain/api/ports stay framework-free, app, domain, ports
// and api reach no store even indirectly (platform/event and platform/tx are their
// ports), and each module imports only the apis its entry in the allow-list apiImports
// names. It also keeps docs/architecture.md's module table true to the modules/ folders
// and to that allow-list.
package archtest
