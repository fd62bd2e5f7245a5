import { GraphQLScalarType, Kind } from 'graphql';

/**
 * Exact decimal amounts (prices, totals) travel as strings ("19.99"), never as floats. Input may be
 * a string or a number literal; the services check the value itself (positive, two decimals, ...)
 * so that a bad amount is reported on its field like any other bad input.
 */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal amount as a string with two decimals, e.g. "19.99". Input may also be a number.',
  serialize(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value.toFixed(2);
    throw new TypeError('Decimal cannot represent this value');
  },
  parseValue(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new TypeError('A decimal amount must be a string or a number.');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return ast.value;
    throw new TypeError('A decimal amount must be a string or a number.');
  },
});

/** A stored numeric(12,2) as a JSON number for REST answers (19.99). */
export const decimalToNumber = (value: string): number => Number(value);
