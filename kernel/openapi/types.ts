/** The parts of an OpenAPI 3.0 document Patchbay writes (a JSON object throughout). */
export interface SchemaObject {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  format?: string;
  description?: string;
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  enum?: (string | number | boolean | null)[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  allOf?: SchemaObject[];
  $ref?: string;
  'x-enum-labels'?: string[];
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: SchemaObject;
  explode?: boolean;
  style?: string;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, { schema: SchemaObject }>;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema: SchemaObject }> };
  responses: Record<string, ResponseObject | { $ref: string }>;
  security?: Record<string, string[]>[];
}

export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'patch' | 'delete' | 'options', OperationObject>> & { parameters?: ParameterObject[] };
