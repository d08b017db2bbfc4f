// Registers the vendor drivers with the registry. Each vendor folder owns its SDK wiring;
// this file only names them, so adding a vendor is one line here.
export {};
