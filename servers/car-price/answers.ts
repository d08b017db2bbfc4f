// The two answers of the reference car-price server (the reference project's servers/car-price-mcp-main/app.py, the
// version the ground truth was recorded with), in its words and layout.
import { pythonRepr } from '../shared/python-format.js';
import { FipeStatusError, type FipeClient } from './fipe.js';

/** "Car Brands Available", the first 20 brands as "- <name> (Code: <code>)", then the total. */
export async function carBrandsText(fipe: FipeClient): Promise<string> {
  const brands = await fipe.brands();
  if (brands.length === 0) return 'No car brands found';
  const lines = brands.slice(0, 20).map((brand) => `- ${brand.nome} (Code: ${brand.codigo})\n`);
  return `Car Brands Available\n\n${lines.join('')}\nTotal brands: ${brands.length}`;
}

/** Python's f-string of a dict value: None for a missing field, str() otherwise. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A refused models/years request: the reference read it as an empty list (it checked no status there). */
async function orEmpty<T>(request: Promise<T[]>): Promise<T[]> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof FipeStatusError) return [];
    throw error;
  }
}

async function modelBlock(fipe: FipeClient, brandCode: string, index: number, model: { nome: string; codigo: string }): Promise<string> {
  const years = await orEmpty(fipe.years(brandCode, model.codigo));
  const latest = years[0];
  if (!latest) return `${index}. ${model.nome} — No year data.\n\n`;
  let price: Record<string, unknown>;
  try {
    price = await fipe.price(brandCode, model.codigo, latest.codigo);
  } catch (error) {
    if (error instanceof FipeStatusError) return `${index}. ${model.nome} — Price unavailable.\n\n`;
    throw error;
  }
  return (
    `${index}. ${model.nome}\n` +
    `   Year: ${shown(price.AnoModelo)}\n` +
    `   Fuel: ${shown(price.Combustivel)}\n` +
    `   Price: ${shown(price.Valor)}\n` +
    `   FIPE Code: ${shown(price.CodigoFipe)}\n` +
    `   Reference: ${shown(price.MesReferencia)}\n\n`
  );
}

/**
 * Every model of the first brand whose name contains `brandName` (case-insensitive) whose name
 * contains `modelKeyword`, each with the price of its newest year (the first the table lists).
 */
export async function brandModelPriceText(fipe: FipeClient, brandName: string, modelKeyword: string): Promise<string> {
  const brands = await fipe.brands();
  const wanted = brandName.toLowerCase();
  const brand = brands.find((candidate) => candidate.nome.toLowerCase().includes(wanted));
  if (!brand) return `Brand '${brandName}' not found.`;
  const models = await orEmpty(fipe.models(brand.codigo));
  if (models.length === 0) return `No models found for brand '${brand.nome}'.`;
  const keyword = modelKeyword.toLowerCase();
  const matched = models.filter((model) => model.nome.toLowerCase().includes(keyword));
  if (matched.length === 0) {
    return `No models matching '${modelKeyword}' under brand '${brand.nome}'.\nExamples: ${pythonRepr(models.slice(0, 10).map((model) => model.nome))}`;
  }
  const blocks = await Promise.all(matched.map((model, index) => modelBlock(fipe, brand.codigo, index + 1, model)));
  return `Matched Models for ${brand.nome} — '${modelKeyword}'\n\n${blocks.join('')}`;
}
