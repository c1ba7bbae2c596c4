"""Plan data: what the compiler (epl.compiler) hands the runtime (engine) to instantiate.

Frozen dataclasses, one module per feature, holding parameters and compiled closures, never
runtime objects. The compiler builds them; the runtime reads them and builds its objects when a
statement starts. May import the contracts (engine.contracts), views factories, filterindex
specs and the AST; never epl.compiler and never the runtime."""
